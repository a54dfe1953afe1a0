package demo

import (
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strings"

	"eval752/app/model"
)

// The b-2 part: a corpus manifest of made-up source files in six modalities,
// the annotation-source registry, an atom table (the runs' chunking) and 40
// annotations. The source files themselves are not in the bundle (as in
// seed 000, the corpus lives beside the sets); their sha256 values are hashes
// of a fixed placeholder text per file, so they are real hex, reproducible,
// and obviously not of any real file.

type b2Dataset struct {
	Name, Short, Revision, License, AnnotationSource, URL string
}

var b2Datasets = []b2Dataset{
	{"eval752-demo/safety-manuals", "safety-manuals", "5f1c2a9e0b7d", "CC0-1.0 (made-up demo data)",
		"two trained human annotators of the fictional Lantern Review Group; disagreements adjudicated by a third reviewer", "https://example.invalid/safety-manuals"},
	{"eval752-demo/app-screens", "app-screens", "a9d03b71c2e4", "CC0-1.0 (made-up demo data)",
		"human annotators of the fictional Harbor Usability Lab, double-keyed with adjudication", "https://example.invalid/app-screens"},
	{"eval752-demo/support-logs", "support-logs", "c47e88d0f311", "CC0-1.0 (made-up demo data)",
		"trained human annotators of the fictional Meridian Support QA team, each item checked by a second annotator", "https://example.invalid/support-logs"},
}

type b2Source struct {
	DS       int // index into b2Datasets
	Path     string
	Modality string
	Pages    int
	W, H     float64
	Duration float64
	Lines    int
	Turns    int
	Holder   string // conversation: whose memory it is
	Start    string // conversation: time of turn 1 (turns are 2 minutes apart)
}

var b2Sources = []b2Source{
	{DS: 0, Path: "manual-kettle.pdf", Modality: "pdf", Pages: 12},
	{DS: 0, Path: "manual-heater.pdf", Modality: "pdf", Pages: 8},
	{DS: 0, Path: "label-photo-01.jpg", Modality: "image", W: 1024, H: 768},
	{DS: 0, Path: "label-photo-02.jpg", Modality: "image", W: 1024, H: 768},
	{DS: 0, Path: "hazard-sign-03.jpg", Modality: "image", W: 800, H: 800},
	{DS: 1, Path: "recall-app-home.png", Modality: "ui_screenshot", W: 1170, H: 2532},
	{DS: 1, Path: "recall-app-detail.png", Modality: "ui_screenshot", W: 1170, H: 2532},
	{DS: 1, Path: "unboxing-kettle.mp4", Modality: "video", Duration: 184},
	{DS: 1, Path: "tipover-test.mp4", Modality: "video", Duration: 95.5},
	{DS: 2, Path: "firmware/thermal_cutoff.c", Modality: "code", Lines: 120},
	{DS: 2, Path: "firmware/charge_ctrl.py", Modality: "code", Lines: 88},
	{DS: 2, Path: "chats/chat-0001.json", Modality: "conversation", Turns: 12, Holder: "alice", Start: "2026-02-10T10:00:00Z"},
	{DS: 2, Path: "chats/chat-0002.json", Modality: "conversation", Turns: 8, Holder: "bob", Start: "2026-02-11T15:30:00Z"},
}

func (s b2Source) id() string { return b2Datasets[s.DS].Short + ":" + s.Path }

// codeSymbols are the code atoms: line ranges and the symbols they define.
var codeSymbols = map[string][]struct {
	From, To int
	Symbols  []string
}{
	"firmware/thermal_cutoff.c": {{1, 18, nil}, {19, 52, []string{"read_ntc_celsius"}}, {53, 88, []string{"thermal_cutoff_check"}}, {89, 120, []string{"on_dry_boil"}}},
	"firmware/charge_ctrl.py":   {{1, 20, nil}, {21, 47, []string{"ChargeController", "ChargeController.set_limits"}}, {48, 70, []string{"ChargeController.on_overvoltage"}}, {71, 88, []string{"main"}}},
}

// uiRegions are the screenshot atoms (bboxes in pixels).
var uiRegions = map[string][][4]float64{
	"recall-app-home.png":   {{0, 0, 1170, 300}, {0, 300, 1170, 900}, {0, 900, 1170, 2100}, {0, 2100, 1170, 2532}},
	"recall-app-detail.png": {{0, 0, 1170, 400}, {0, 400, 1170, 1200}, {0, 1200, 1170, 1900}, {0, 1900, 1170, 2532}},
}

// turnTime is the observed_at of a conversation turn (1-based).
func turnTime(s b2Source, turn int) string {
	var y, mo, d, h, mi int
	fmt.Sscanf(s.Start, "%d-%d-%dT%d:%d", &y, &mo, &d, &h, &mi)
	m := h*60 + mi + 2*(turn-1)
	return fmt.Sprintf("%04d-%02d-%02dT%02d:%02d:00Z", y, mo, d, m/60, m%60)
}

func ip(v int) *int         { return &v }
func fp(v float64) *float64 { return &v }
func sp(v string) *string   { return &v }

// short is a source path's base name without its extension, the prefix of
// its atom ids ("chats/chat-0001.json" → "chat-0001").
func short(path string) string {
	return strings.TrimSuffix(path[strings.LastIndex(path, "/")+1:], path[strings.LastIndex(path, "."):])
}

// b2Atoms builds the atom table.
func b2Atoms() []model.Atom {
	var out []model.Atom
	for _, s := range b2Sources {
		base := short(s.Path)
		switch s.Modality {
		case "pdf":
			for p := 1; p <= s.Pages; p++ {
				for b := 1; b <= 2; b++ {
					out = append(out, model.Atom{AtomID: fmt.Sprintf("%s-p%02d-b%d", base, p, b), SourceID: s.id(), Page: ip(p), Block: ip(b)})
				}
			}
		case "image":
			out = append(out, model.Atom{AtomID: base, SourceID: s.id()})
		case "ui_screenshot":
			for i, r := range uiRegions[s.Path] {
				out = append(out, model.Atom{AtomID: fmt.Sprintf("%s-r%d", base, i+1), SourceID: s.id(), BBox: []float64{r[0], r[1], r[2], r[3]}})
			}
		case "video":
			for t := 0.0; t < s.Duration; t += 15 {
				out = append(out, model.Atom{AtomID: fmt.Sprintf("%s-t%03d", base, int(t)), SourceID: s.id(), TStart: fp(t), TEnd: fp(math.Min(t+15, s.Duration))})
			}
		case "code":
			for _, c := range codeSymbols[s.Path] {
				out = append(out, model.Atom{AtomID: fmt.Sprintf("%s-L%d-%d", base, c.From, c.To), SourceID: s.id(), Path: s.Path,
					LineStart: ip(c.From), LineEnd: ip(c.To), Symbols: c.Symbols})
			}
		case "conversation":
			for t := 1; t <= s.Turns; t++ {
				out = append(out, model.Atom{AtomID: fmt.Sprintf("%s-turn%02d", base, t), SourceID: s.id(), Turn: ip(t),
					ObservedAt: turnTime(s, t), Holder: s.Holder})
			}
		}
	}
	return out
}

// overlaps is the demo's region → atom resolution (spec §4), used only to
// place gold atoms in the simulated rankings.
func overlaps(a model.Atom, g model.B2Gold) bool {
	if a.SourceID != g.SourceID {
		return false
	}
	num := func(k string) (float64, bool) {
		v, ok := g.Region[k]
		if !ok {
			return 0, false
		}
		switch x := v.(type) {
		case int:
			return float64(x), true
		case float64:
			return x, true
		}
		return 0, false
	}
	if p, ok := num("page"); ok {
		if a.Page == nil || float64(*a.Page) != p {
			return false
		}
		if b, ok := num("block"); ok {
			return a.Block != nil && float64(*a.Block) == b
		}
		return true
	}
	if bb, ok := g.Region["bbox"].([]float64); ok {
		return len(a.BBox) == 4 && bb[0] < a.BBox[2] && a.BBox[0] < bb[2] && bb[1] < a.BBox[3] && a.BBox[1] < bb[3]
	}
	if s, ok := num("t_start"); ok {
		e, _ := num("t_end")
		return a.TStart != nil && s < *a.TEnd && *a.TStart < e
	}
	if sym, ok := g.Region["symbol"].(string); ok {
		for _, x := range a.Symbols {
			if x == sym {
				return true
			}
		}
		return false
	}
	if l, ok := num("line"); ok {
		return a.LineStart != nil && float64(*a.LineStart) <= l && l <= float64(*a.LineEnd)
	}
	if t, ok := num("turn"); ok {
		return a.Turn != nil && float64(*a.Turn) == t
	}
	return len(g.Region) == 0 // image: the whole image
}

type b2Src struct {
	N        int // 1..40
	Src      int // index into b2Sources (the item's document; also for unanswerable)
	Split    string
	Question string
	Answer   any // nil = unanswerable
	Format   string
	Gold     []map[string]any
	AsOf     string
}

const docAsOf = "2026-03-01T00:00:00+00:00"

var b2Items = []b2Src{
	{1, 0, "dev", "What rated power is printed on the DK-17 specification page?", "1800 W", "str", []map[string]any{{"page": 2, "block": 1}}, docAsOf},
	{2, 0, "dev", "How many seconds does the DK-17 dry-boil protection take to cut the power?", 3, "int", []map[string]any{{"page": 5, "block": 2}}, docAsOf},
	{3, 1, "test", "On which page of the HA-200 manual is the tip-over switch described?", 4, "int", []map[string]any{{"page": 4}}, docAsOf},
	{4, 1, "test", "What minimum clearance from curtains, in metres, does the HA-200 manual recommend?", 0.9, "float", []map[string]any{{"page": 3, "block": 1}}, docAsOf},
	{5, 0, "dev", "List the cleaning steps of the DK-17 manual in order.", []string{"unplug the kettle", "let it cool", "descale monthly"}, "list", []map[string]any{{"page": 9, "block": 1}, {"page": 9, "block": 2}}, docAsOf},
	{6, 0, "test", "What is the DK-17 warranty period for buyers in Japan?", nil, "none", nil, docAsOf},
	{7, 1, "dev", "Which colour options is the HA-200 sold in?", nil, "none", nil, docAsOf},
	{8, 1, "test", "On which page is the HA-200 wiring diagram?", 7, "int", []map[string]any{{"page": 7, "block": 2}}, docAsOf},
	{9, 2, "dev", "What current rating is printed on the plug label?", "10 A", "str", []map[string]any{{}}, docAsOf},
	{10, 3, "dev", "What output voltage does the charger label show?", "5 V", "str", []map[string]any{{}}, docAsOf},
	{11, 4, "test", "Which hazard does the sign warn about?", "hot surface", "str", []map[string]any{{}}, docAsOf},
	{12, 2, "test", "How many certification marks are printed on the plug label?", 2, "int", []map[string]any{{}}, docAsOf},
	{13, 3, "dev", "What serial number is printed on the back of the charger?", nil, "none", nil, docAsOf},
	{14, 4, "test", "What manufacture date is printed on the hazard sign?", nil, "none", nil, docAsOf},
	{15, 5, "dev", "How many active recalls does the app's home screen show?", 3, "int", []map[string]any{{"bbox": []float64{40, 340, 1130, 860}}}, docAsOf},
	{16, 6, "dev", "Which button on the recall detail screen requests a remedy?", "Request remedy", "str", []map[string]any{{"bbox": []float64{80, 2080, 1090, 2240}}}, docAsOf},
	{17, 6, "test", "What defect does the recall detail screen describe for the HA-200?", "the tip-over switch can fail", "str", []map[string]any{{"bbox": []float64{60, 1240, 1110, 1520}}}, docAsOf},
	{18, 5, "test", "Which product is listed first under 'Recent recalls' on the home screen?", "HA-200 space heater", "str", []map[string]any{{"bbox": []float64{40, 940, 1130, 1180}}}, docAsOf},
	{19, 5, "dev", "What placeholder text does the search box on the home screen show?", "Search by model number", "str", []map[string]any{{"bbox": []float64{60, 150, 1110, 260}}}, docAsOf},
	{20, 5, "test", "What is the user's account balance shown in the app?", nil, "none", nil, docAsOf},
	{21, 6, "dev", "Which risk level does the recall detail screen show?", "III", "str", []map[string]any{{"bbox": []float64{60, 220, 600, 380}}}, docAsOf},
	{22, 7, "dev", "At what second does the presenter start the dry-boil demonstration?", 62.5, "float", []map[string]any{{"t_start": 61.0, "t_end": 72.5}}, docAsOf},
	{23, 7, "dev", "Which accessory comes in the box besides the base?", "a descaling brush", "str", []map[string]any{{"t_start": 20.0, "t_end": 28.5}}, docAsOf},
	{24, 8, "test", "At how many degrees of tilt does the tip-over switch trip in the test?", 45, "int", []map[string]any{{"t_start": 33.0, "t_end": 41.0}}, docAsOf},
	{25, 8, "test", "Does the faulty heater stop after it falls over in the second trial?", "no", "str", []map[string]any{{"t_start": 47.5, "t_end": 58.0}}, docAsOf},
	{26, 7, "dev", "Which brand of bottled water does the presenter use?", nil, "none", nil, docAsOf},
	{27, 8, "test", "Who narrates the tip-over test video?", nil, "none", nil, docAsOf},
	{28, 9, "dev", "At what temperature in °C does thermal_cutoff_check trip?", 125, "int", []map[string]any{{"path": "firmware/thermal_cutoff.c", "symbol": "thermal_cutoff_check"}}, docAsOf},
	{29, 9, "dev", "Which function converts the NTC reading to degrees Celsius?", "read_ntc_celsius", "str", []map[string]any{{"path": "firmware/thermal_cutoff.c", "line": 24}}, docAsOf},
	{30, 10, "test", "What default over-voltage limit, in volts, does set_limits use?", 4.25, "float", []map[string]any{{"path": "firmware/charge_ctrl.py", "symbol": "ChargeController.set_limits"}}, docAsOf},
	{31, 10, "test", "What is the first thing on_overvoltage does?", "disables the charge FET", "str", []map[string]any{{"path": "firmware/charge_ctrl.py", "line": 52}}, docAsOf},
	{32, 9, "test", "Which state does on_dry_boil return?", "CUTOFF_LATCHED", "str", []map[string]any{{"path": "firmware/thermal_cutoff.c", "line": 104}}, docAsOf},
	{33, 9, "dev", "Which compiler version builds the kettle firmware?", nil, "none", nil, docAsOf},
	{34, 10, "test", "What Bluetooth pairing code is hard-coded in charge_ctrl.py?", nil, "none", nil, docAsOf},
	{35, 11, "dev", "Which kettle model did Alice say she owns?", "DK-17", "str", []map[string]any{{"turn": 2}}, "2026-02-10T11:00:00+00:00"},
	{36, 11, "dev", "On which day did Alice say the kettle base started to smell of burning?", "Sunday", "str", []map[string]any{{"turn": 4}}, "2026-02-10T10:10:00+00:00"},
	{37, 11, "test", "Which remedy did the agent offer Alice?", "a free replacement base", "str", []map[string]any{{"turn": 9}}, "2026-02-10T11:00:00+00:00"},
	{38, 12, "test", "How many power banks did Bob order?", 2, "int", []map[string]any{{"turn": 3}}, "2026-02-11T17:00:00+00:00"},
	{39, 11, "dev", "What is Alice's home address?", nil, "none", nil, "2026-02-10T11:00:00+00:00"},
	{40, 12, "test", "Which items did Bob ask to return?", []string{"PB-10 power bank", "USB-C cable"}, "list", []map[string]any{{"turn": 5}, {"turn": 6}}, "2026-02-11T17:00:00+00:00"},
}

func scenario(mod string) string {
	switch mod {
	case "pdf", "image":
		return "document-qa"
	case "ui_screenshot", "video":
		return "app-support"
	case "code":
		return "code-qa"
	}
	return "chat-memory"
}

// b2Annotations builds the annotation records.
func b2Annotations() ([]model.B2, error) {
	var out []model.B2
	for i, a := range b2Items {
		if a.N != i+1 {
			return nil, fmt.Errorf("demo: b-2 source row %d numbered %d", i+1, a.N)
		}
		s := b2Sources[a.Src]
		ds := b2Datasets[s.DS]
		ans, err := json.Marshal(a.Answer)
		if err != nil {
			return nil, err
		}
		r := model.B2{
			QueryID: fmt.Sprintf("%s:%d", s.id(), a.N), Modality: s.Modality, Question: a.Question,
			Answer: ans, AnswerFormat: a.Format, Gold: []model.B2Gold{}, AsOf: a.AsOf, Unanswerable: a.Answer == nil,
			Scope:  model.B2Scope{Holder: "owner", Scenario: scenario(s.Modality)},
			Origin: model.B2Origin{Dataset: ds.Name, Revision: ds.Revision, Item: fmt.Sprintf("row:%d", a.N-1), License: ds.License},
			Split:  a.Split,
		}
		if s.Modality == "conversation" {
			r.Scope.Holder = s.Holder
			r.Scope.Session = sp(short(s.Path))
		}
		for _, g := range a.Gold {
			r.Gold = append(r.Gold, model.B2Gold{SourceID: s.id(), Region: g})
		}
		out = append(out, r)
	}
	return out, nil
}

// b2CorpusManifest lists every source with its placeholder sha256.
func b2CorpusManifest() []model.CorpusEntry {
	var out []model.CorpusEntry
	for _, s := range b2Sources {
		ds := b2Datasets[s.DS]
		e := model.CorpusEntry{SourceID: s.id(), Dataset: ds.Name, Revision: ds.Revision, Path: s.Path,
			SHA256:   sha256Hex([]byte("eval752 demo corpus placeholder\n" + ds.Name + "@" + ds.Revision + "/" + s.Path + "\n")),
			Modality: s.Modality, License: ds.License}
		switch s.Modality {
		case "pdf":
			e.Pages = ip(s.Pages)
		case "image", "ui_screenshot":
			e.Width, e.Height = fp(s.W), fp(s.H)
		case "video":
			e.Duration = fp(s.Duration)
		case "code":
			e.Lines = ip(s.Lines)
		case "conversation":
			e.Turns = ip(s.Turns)
		}
		out = append(out, e)
	}
	return out
}

func b2Registry() []model.Source {
	var out []model.Source
	for _, d := range b2Datasets {
		out = append(out, model.Source{Dataset: d.Name, AnnotationSource: d.AnnotationSource, License: d.License, URL: d.URL})
	}
	return out
}

// simulateB2Run ranks atoms for one annotation. The gold atoms land at a
// rank drawn from the run's quality profile (bm25: 55 % rank 1, 20 % ranks
// 2–3, 15 % ranks 4–10, 10 % not retrieved; hybrid-rerank: 70/15/10/5 %),
// the other places are filled with atoms of the same source first (hard
// negatives), then of other sources of the same modality. Conversation runs
// only see the holder's own turns up to as_of, except for the two planted
// leaks the safety metrics must catch.
func simulateB2Run(run string, b model.B2, atoms []model.Atom) []model.Retrieved {
	var gold, same, other []string
	isGold := map[string]bool{}
	src := ""
	if len(b.Gold) > 0 {
		src = b.Gold[0].SourceID
	} else {
		src = b.QueryID[:strings.LastIndex(b.QueryID, ":")]
	}
	for _, a := range atoms {
		for _, g := range b.Gold {
			if overlaps(a, g) && !isGold[a.AtomID] {
				isGold[a.AtomID] = true
				gold = append(gold, a.AtomID)
			}
		}
	}
	modOf := map[string]string{}
	for _, s := range b2Sources {
		modOf[s.id()] = s.Modality
	}
	for _, a := range atoms {
		if isGold[a.AtomID] || modOf[a.SourceID] != b.Modality {
			continue
		}
		if b.Modality == "conversation" && (a.Holder != b.Scope.Holder || a.ObservedAt > strings.Replace(b.AsOf, "+00:00", "Z", 1)) {
			continue
		}
		if a.SourceID == src {
			same = append(same, a.AtomID)
		} else {
			other = append(other, a.AtomID)
		}
	}
	shuffle := func(ids []string) {
		sort.SliceStable(ids, func(i, j int) bool { return unit(run, b.QueryID, ids[i]) < unit(run, b.QueryID, ids[j]) })
	}
	shuffle(same)
	shuffle(other)
	fill := append(same, other...)
	u := unit(run, b.QueryID, "rank")
	cut := [3]float64{0.55, 0.75, 0.90}
	if run != "bm25" {
		cut = [3]float64{0.70, 0.85, 0.95}
	}
	rank := 0 // 1-based rank of the first gold atom; 0 = not retrieved
	switch {
	case u < cut[0]:
		rank = 1
	case u < cut[1]:
		rank = 2 + int(2*unit(run, b.QueryID, "r2"))
	case u < cut[2]:
		rank = 4 + int(7*unit(run, b.QueryID, "r3"))
	}
	const k = 10
	ranked := make([]string, 0, k)
	gi := 0
	for len(ranked) < k {
		pos := len(ranked) + 1
		if rank > 0 && pos >= rank && gi < len(gold) {
			ranked = append(ranked, gold[gi])
			gi++
			continue
		}
		if len(fill) == 0 {
			break
		}
		ranked = append(ranked, fill[0])
		fill = fill[1:]
	}
	// planted safety cases (seed 000 §2.4 temporal, §2.5 holder)
	plant := func(id string, at int) {
		ranked = append(ranked[:at-1], append([]string{id}, ranked[at-1:]...)...)
		if len(ranked) > k {
			ranked = ranked[:k]
		}
	}
	if run == "bm25" && strings.HasSuffix(b.QueryID, ":36") {
		plant("chat-0001-turn09", 1) // observed 10:16, after the question's as_of 10:10
	}
	if strings.HasSuffix(b.QueryID, ":39") {
		at := 2
		if run != "bm25" {
			at = 6
		}
		plant("chat-0002-turn04", at) // Bob's memory retrieved for Alice
	}
	top := 14.0
	if run != "bm25" {
		top = 0.93
	}
	out := make([]model.Retrieved, len(ranked))
	for i, id := range ranked {
		out[i] = model.Retrieved{ID: id, Score: fp(round3(top * math.Exp(-0.16*float64(i)) * (1 - 0.03*unit(run, b.QueryID, id))))}
	}
	// keep scores strictly descending after the jitter
	for i := 1; i < len(out); i++ {
		if *out[i].Score >= *out[i-1].Score {
			out[i].Score = fp(round3(*out[i-1].Score - 0.001))
		}
	}
	return out
}
