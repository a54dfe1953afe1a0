package validate

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"time"
	"unicode"

	"eval752/app/finding"
	"eval752/app/jsonl"
	"eval752/app/model"
)

// Gates 2 and 3 for b-2 annotation sets: the seven hard constraints of
// seed 000 §2, the region table of §3, and §5's "gold is a region, never a
// whole file".
//
// Numbering conventions the seed leaves open, fixed here: pdf pages, code
// lines and conversation turns are 1-based (page 1 is the first page, and the
// corpus manifest's pages / lines / turns are counts, so the last one equals
// the count); pdf blocks are 0-based indexes; bbox and time values are ≥ 0.

var (
	ruleB2RegionShape = register(finding.Rule{
		Code:        "b2.region-shape",
		Severity:    finding.Error,
		Description: "A gold region has exactly the shape seed 000 §3 gives for the annotation's modality (pdf {page} or {page,block}; image {}; ui_screenshot {bbox} with x0<x1, y0<y1; video {t_start,t_end} with 0 ≤ t_start ≤ t_end (equal: an instant); code {path,symbol} or {path,line}; conversation {turn}).",
		Source:      "seed 000 §3",
		Hint:        "Write the region in the modality's shape from seed 000 §3; the resolver reads no other keys.",
		Family:      "b2",
	})
	ruleB2WholeFile = register(finding.Rule{
		Code:        "b2.gold-whole-file",
		Severity:    finding.Error,
		Description: "Gold is a region, never a whole file: a region naming nothing more precise than the source, or covering all of it per the corpus manifest, is rejected (image {} is the seed's own whole-image region and allowed).",
		Source:      "seed 000 §5 (禁止把 gold 文件整文件当 gold atom); §2 constraint 2",
		Hint:        "Narrow the gold to the page, box, interval, symbol, line or turn that holds the answer; whole-file gold lets whole-file chunking score full marks.",
		Family:      "b2",
	})
	ruleB2GoldAtom = register(finding.Rule{
		Code:        "b2.gold-atom-id",
		Severity:    finding.Error,
		Description: "A gold entry names a source region, never an atom or chunk id (atom_id, chunk_id, atom, chunk): atom ids depend on the chunking the benchmark is meant to compare.",
		Source:      "seed 000 §2 constraint 2 (gold 表达为「源 + 区域」,不是 atom id)",
		Hint:        "Replace the atom id with the region it covers (e.g. {\"page\": 5}); the scorer resolves regions to each run's atoms.",
		Family:      "b2",
	})
	ruleB2RegionExtent = register(finding.Rule{
		Code:        "b2.region-extent",
		Severity:    finding.Error,
		Description: "A gold region lies inside its source's extent when the corpus manifest gives it (pages, width/height, duration_s, lines, turns).",
		Source:      "seed 000 §3; §2 constraint 7",
		Hint:        "Check the page / box / time / line / turn against the source; the manifest entry may be for another revision.",
		Family:      "b2",
	})
	ruleB2UnanswerableGold = register(finding.Rule{
		Code:        "b2.unanswerable-gold",
		Severity:    finding.Error,
		Description: "unanswerable=true ⇒ gold is an empty array.",
		Source:      "seed 000 §2 constraint 3",
		Hint:        "Empty the gold, or set unanswerable to false if the sources do answer the question.",
		Family:      "b2",
	})
	ruleB2UnanswerableAnswer = register(finding.Rule{
		Code:        "b2.unanswerable-answer",
		Severity:    finding.Error,
		Description: "unanswerable=true ⇒ answer is null and answer_format is \"none\".",
		Source:      "seed 000 §1 (answer: 不可回答时为 null); §2 constraint 3",
		Hint:        "Set \"answer\": null and \"answer_format\": \"none\".",
		Family:      "b2",
	})
	ruleB2AnswerableGold = register(finding.Rule{
		Code:        "b2.answerable-gold",
		Severity:    finding.Error,
		Description: "unanswerable=false ⇒ gold names at least one source region.",
		Source:      "seed 000 §2 constraint 2 (gold 表达为「源 + 区域」)",
		Hint:        "Add the region that holds the answer, or mark the annotation unanswerable.",
		Family:      "b2",
	})
	ruleB2AnswerFormat = register(finding.Rule{
		Code:        "b2.answer-format",
		Severity:    finding.Error,
		Description: "An answerable annotation has an answer and an answer_format other than none (null and none are for unanswerable ones only).",
		Source:      "seed 000 §1 (answer: 不可回答时为 null; answer_format: str | int | float | list | none)",
		Hint:        "Give the answer and its format, or set unanswerable to true if the sources do not answer the question.",
		Family:      "b2",
	})
	ruleB2AnswerType = register(finding.Rule{
		Code:        "b2.answer-type",
		Severity:    finding.Warning,
		Description: "An answerable annotation's answer reads as its answer_format: int → an integer, float → a number, str → a string, list → an array. Seed 000 stores the answer as the original text (标准答案原文), so a string that reads as the number (\"42\", \"18.29%\" under float, \"1,200\") or a list written as text (\"['a', 'b']\") is accepted; a percentage under int (\"21%\") is reported as one.",
		Source:      "seed 000 §1 (answer: 标准答案原文; answer_format: str | int | float | list | none)",
		Hint:        "Make answer_format describe the answer (or fix the answer): a numeric answer format needs an answer that reads as a number.",
		Family:      "b2",
	})
	ruleB2Share = register(finding.Rule{
		Code:        "b2.unanswerable-share",
		Severity:    finding.Warning,
		Description: "At least 15 % (configurable) of a split's annotations are unanswerable.",
		Source:      "seed 000 §2 constraint 3 (目标占比 ≥15%)",
		Hint:        "Add unanswerable questions (false premises, absent entities) until the split reaches the target; the false-recall rate needs them.",
		Family:      "b2",
	})
	ruleB2AsOf = register(finding.Rule{
		Code:        "b2.as-of",
		Severity:    finding.Error,
		Description: "as_of is an RFC 3339 / ISO 8601 timestamp with a date, a time and a UTC offset.",
		Source:      "seed 000 §2 constraint 4",
		Hint:        "Write e.g. \"2024-01-01T00:00:00+00:00\"; without an offset the temporal-correctness metric cannot order evidence.",
		Family:      "b2",
	})
	ruleB2Split = register(finding.Rule{
		Code:        "b2.split",
		Severity:    finding.Error,
		Description: "split is \"dev\" or \"test\".",
		Source:      "seed 000 §2 constraint 6",
		Hint:        "Use \"dev\" for tuning and \"test\" for the frozen final check.",
		Family:      "b2",
	})
	ruleB2Revision = register(finding.Rule{
		Code:        "b2.revision-unknown",
		Severity:    finding.Error,
		Description: "origin.revision of origin.dataset has an entry in the corpus manifest (an abbreviated hex revision of ≥ 7 digits matches).",
		Source:      "seed 000 §2 constraint 7",
		Hint:        "Add the dataset revision's files to bench/corpus/manifest.jsonl, or fix origin.revision; without it the annotation is void.",
		Family:      "b2",
	})
	ruleB2Source = register(finding.Rule{
		Code:        "b2.source-unknown",
		Severity:    finding.Error,
		Description: "Every gold source_id has an entry in the corpus manifest.",
		Source:      "seed 000 §2 constraint 7; SPEC §3 gate 2",
		Hint:        "Add the source to the corpus manifest (with its sha256) or fix source_id.",
		Family:      "b2",
	})
	ruleB2SourceModality = register(finding.Rule{
		Code:        "b2.source-modality",
		Severity:    finding.Warning,
		Description: "A gold source's modality in the corpus manifest (when given) equals the annotation's modality.",
		Source:      "seed 000 §3",
		Hint:        "The region shape follows the annotation's modality; a source of another modality cannot be resolved with it.",
		Family:      "b2",
	})
	ruleB2CorpusAbsent = register(finding.Rule{
		Code:        "b2.corpus-manifest-absent",
		Severity:    finding.Warning,
		Description: "No corpus manifest was loaded, so origin.revision, source_id and region extents are not checked; reported once per set file.",
		Source:      "seed 000 §2 constraint 7; §5",
		Hint:        "Validate the set together with bench/corpus/manifest.jsonl.",
		Family:      "b2",
	})
	ruleB2SourceUnregistered = register(finding.Rule{
		Code:        "b2.annotation-source-unregistered",
		Severity:    finding.Error,
		Description: "origin.dataset is registered, with its annotation_source, in the annotation-source registry.",
		Source:      "seed 000 §2 constraint 1",
		Hint:        "Register the dataset and who annotated its gold in the sources registry.",
		Family:      "b2",
	})
	ruleB2SourceSelf = register(finding.Rule{
		Code:        "b2.annotation-source-self",
		Severity:    finding.Warning,
		Description: "A registered annotation_source does not name a model, OCR, or the system under test: gold must be third-party human annotation.",
		Source:      "seed 000 §2 constraint 1; §5 (禁止用被测系统自己抽取的文本当 gold)",
		Hint:        "Use a dataset whose gold was annotated by people outside this project, or document why this source qualifies.",
		Family:      "b2",
	})
	ruleB2SourcesAbsent = register(finding.Rule{
		Code:        "b2.sources-absent",
		Severity:    finding.Warning,
		Description: "No annotation-source registry was loaded, so constraint 1 is not checked; reported once per set file.",
		Source:      "seed 000 §2 constraint 1",
		Hint:        "Validate the set together with the sources registry (one {\"dataset\", \"annotation_source\"} per line).",
		Family:      "b2",
	})
)

// regionProblem is one thing wrong with a region, at a pointer below it.
type regionProblem struct {
	rule    *finding.Rule
	pointer string // relative to the region ("" = the region itself)
	msg     string
}

// regionShapes are the legal key sets of seed 000 §3, for messages.
var regionShapes = map[string]string{
	"pdf":           `{"page": int} or {"page": int, "block": int}`,
	"image":         `{} (the whole image)`,
	"ui_screenshot": `{"bbox": [x0, y0, x1, y1]}`,
	"video":         `{"t_start": float, "t_end": float}`,
	"code":          `{"path": str, "symbol": str} or {"path": str, "line": int}`,
	"conversation":  `{"turn": int}`,
}

// checkRegion checks one region against the modality's shape and, when src
// is known, against the source's extent.
// regionKeys are the keys of each modality's region shape (regionShapes).
var regionKeys = map[string][]string{
	"pdf": {"page", "block"}, "image": {}, "ui_screenshot": {"bbox"},
	"video": {"t_start", "t_end"}, "code": {"path", "symbol", "line"}, "conversation": {"turn"},
}

func checkRegion(modality string, region any, src *model.CorpusEntry) []regionProblem {
	shape, known := regionShapes[modality]
	if !known {
		return nil // the schema reports an unknown modality
	}
	reg, isObj := region.(map[string]any)
	if region == nil {
		return []regionProblem{{ruleB2WholeFile, "", fmt.Sprintf("gold has no region, so it is the whole source; a %s region is %s", modality, shape)}}
	}
	if !isObj {
		return []regionProblem{{ruleB2RegionShape, "", fmt.Sprintf("region must be an object %s", shape)}}
	}
	if len(reg) == 0 && modality != "image" {
		return []regionProblem{{ruleB2WholeFile, "", fmt.Sprintf("empty region {} is the whole source; a %s region is %s", modality, shape)}}
	}
	var ps []regionProblem
	shapeErr := func(p, format string, args ...any) {
		ps = append(ps, regionProblem{ruleB2RegionShape, p, fmt.Sprintf(format, args...)})
	}
	allowed := regionKeys[modality]
	isAllowed := func(k string) bool { return slices.Contains(allowed, k) }
	unexpected := false
	for k := range reg {
		unexpected = unexpected || !isAllowed(k)
	}
	if unexpected { // in key order
		for _, k := range slices.Sorted(maps.Keys(reg)) {
			if !isAllowed(k) {
				shapeErr(jsonl.Pointer(k), "%s region has unexpected key %q; the shape is %s", modality, k, shape)
			}
		}
	}
	intField := func(k string, min int) (int, bool) {
		v, present := reg[k]
		if !present {
			return 0, false
		}
		f, integer, ok := number(v)
		if !ok || !integer {
			shapeErr(jsonl.Pointer(k), "%s must be an integer", k)
			return 0, false
		}
		if f < float64(min) {
			shapeErr(jsonl.Pointer(k), "%s must be ≥ %d, got %s", k, min, fmtNum(f))
			return 0, false
		}
		if f > math.MaxInt32 {
			shapeErr(jsonl.Pointer(k), "%s %s is too large to be a %s", k, fmtNum(f), k)
			return 0, false
		}
		return int(f), true
	}
	extentErr := func(p, format string, args ...any) {
		ps = append(ps, regionProblem{ruleB2RegionExtent, p, fmt.Sprintf(format, args...)})
	}
	whole := func(format string, args ...any) {
		ps = append(ps, regionProblem{ruleB2WholeFile, "", fmt.Sprintf(format, args...)})
	}
	switch modality {
	case "pdf":
		if _, has := reg["page"]; !has {
			shapeErr("", "pdf region needs \"page\"; the shape is %s", shape)
			break
		}
		page, okPage := intField("page", 1)
		_, hasBlock := reg["block"]
		intField("block", 0)
		if okPage && src != nil && src.Pages != nil {
			if page > *src.Pages {
				extentErr("/page", "page %d is past the end of %s (%d pages)", page, src.SourceID, *src.Pages)
			} else if *src.Pages == 1 && !hasBlock {
				whole("page 1 of the one-page %s is the whole file; name a block", src.SourceID)
			}
		}
	case "ui_screenshot":
		bb, has := reg["bbox"]
		if !has {
			shapeErr("", "ui_screenshot region needs \"bbox\"; the shape is %s", shape)
			break
		}
		xs, ok := numbers(bb)
		if !ok || len(xs) != 4 {
			shapeErr("/bbox", "bbox must be 4 numbers [x0, y0, x1, y1]")
			break
		}
		if msg := bboxProblem(xs); msg != "" {
			shapeErr("/bbox", "%s", msg)
			break
		}
		if src != nil && src.Width != nil && src.Height != nil {
			w, h := *src.Width, *src.Height
			if xs[2] > w || xs[3] > h {
				extentErr("/bbox", "bbox %s reaches outside the %s×%s screenshot %s", fmtBox(xs), fmtNum(w), fmtNum(h), src.SourceID)
			} else if xs[0] <= 0 && xs[1] <= 0 && xs[2] >= w && xs[3] >= h {
				whole("bbox %s covers the whole %s×%s screenshot %s", fmtBox(xs), fmtNum(w), fmtNum(h), src.SourceID)
			}
		}
	case "video":
		ts, hasS := reg["t_start"]
		te, hasE := reg["t_end"]
		if !hasS || !hasE {
			shapeErr("", "video region needs \"t_start\" and \"t_end\"; the shape is %s", shape)
			break
		}
		s, _, okS := number(ts)
		e, _, okE := number(te)
		if !okS {
			shapeErr("/t_start", "t_start must be a number of seconds")
		}
		if !okE {
			shapeErr("/t_end", "t_end must be a number of seconds")
		}
		if !okS || !okE {
			break
		}
		if s < 0 {
			shapeErr("/t_start", "t_start must be ≥ 0, got %s", fmtNum(s))
			break
		}
		if s > e {
			shapeErr("/t_end", "t_start %s must not be after t_end %s", fmtNum(s), fmtNum(e))
			break
		}
		if src != nil && src.Duration != nil {
			d := *src.Duration
			if e > d {
				extentErr("/t_end", "t_end %s is past the end of %s (%s s)", fmtNum(e), src.SourceID, fmtNum(d))
			} else if s <= 0 && e >= d {
				whole("interval [%s, %s] spans the whole %s s of %s", fmtNum(s), fmtNum(e), fmtNum(d), src.SourceID)
			}
		}
	case "code":
		p, hasP := reg["path"]
		if s, ok := p.(string); !hasP || !ok || strings.TrimSpace(s) == "" {
			shapeErr(ptrIf(hasP, "/path"), "code region needs a non-empty \"path\"; the shape is %s", shape)
			break
		}
		sym, hasSym := reg["symbol"]
		_, hasLine := reg["line"]
		switch {
		case hasSym && hasLine:
			shapeErr("", "code region has both symbol and line; the shape is %s", shape)
		case hasSym:
			if s, ok := sym.(string); !ok || strings.TrimSpace(s) == "" {
				shapeErr("/symbol", "symbol must be a non-empty string")
			}
		case hasLine:
			if line, ok := intField("line", 1); ok && src != nil && src.Lines != nil && line > *src.Lines {
				extentErr("/line", "line %d is past the end of %s (%d lines)", line, src.SourceID, *src.Lines)
			}
		default:
			whole("code region names only the path, so it is the whole file; add \"symbol\" or \"line\"")
		}
	case "conversation":
		if _, has := reg["turn"]; !has {
			shapeErr("", "conversation region needs \"turn\"; the shape is %s", shape)
			break
		}
		if turn, ok := intField("turn", 1); ok && src != nil && src.Turns != nil {
			if turn > *src.Turns {
				extentErr("/turn", "turn %d is past the end of %s (%d turns)", turn, src.SourceID, *src.Turns)
			} else if *src.Turns == 1 {
				whole("turn 1 of the one-turn conversation %s is the whole source", src.SourceID)
			}
		}
	}
	return ps
}

func ptrIf(cond bool, p string) string {
	if cond {
		return p
	}
	return ""
}

// bboxProblem checks [x0, y0, x1, y1]: non-negative, x0 < x1 and y0 < y1.
func bboxProblem(xs []float64) string {
	for _, x := range xs {
		if x < 0 {
			return fmt.Sprintf("bbox %s has a negative coordinate", fmtBox(xs))
		}
	}
	if xs[0] >= xs[2] || xs[1] >= xs[3] {
		return fmt.Sprintf("bbox %s is not ordered: need x0 < x1 and y0 < y1", fmtBox(xs))
	}
	return ""
}

func fmtBox(xs []float64) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = fmtNum(x)
	}
	return "[" + strings.Join(s, ", ") + "]"
}

// asOfProblem explains why s is not a timestamp with date, time and offset.
func asOfProblem(s string) string {
	t := strings.TrimSpace(s)
	if t == "" {
		return "as_of is empty"
	}
	if _, ok := model.ParseInstant(t); ok {
		return ""
	}
	if _, err := time.Parse("2006-01-02", t); err == nil {
		return fmt.Sprintf("as_of %q is a date without a time and UTC offset", s)
	}
	if _, err := time.Parse("2006-01-02T15:04:05", t); err == nil {
		return fmt.Sprintf("as_of %q has no UTC offset (add Z or +hh:mm)", s)
	}
	if _, err := time.Parse("2006-01-02 15:04:05Z07:00", t); err == nil {
		return fmt.Sprintf("as_of %q separates date and time with a space; use T", s)
	}
	return fmt.Sprintf("as_of %q is not an RFC 3339 timestamp", s)
}

// revisionMatch accepts equal revisions, or an abbreviated hex revision
// (≥ 7 digits, like a short git hash) that is a prefix of the other.
//
// A revision written with an ellipsis, as seed 000 §1 writes its example
// ("2ff6aa..."), is explicitly abbreviated: its hex part matches as a prefix
// from 6 digits on.
func revisionMatch(a, b string) bool {
	if a == b {
		return a != ""
	}
	a, ea := cutEllipsis(a)
	b, eb := cutEllipsis(b)
	short, long := a, b
	if len(short) > len(long) {
		short, long = long, short
	}
	min := 7
	if ea || eb {
		min = 6
	}
	if len(short) < min || !isHex(short) {
		return false
	}
	return strings.HasPrefix(strings.ToLower(long), strings.ToLower(short))
}

// cutEllipsis removes a trailing "..." or "…" and reports whether there was one.
func cutEllipsis(s string) (string, bool) {
	for _, e := range []string{"...", "…"} {
		if t, ok := strings.CutSuffix(s, e); ok {
			return t, true
		}
	}
	return s, false
}

func isHex(s string) bool {
	for _, r := range s {
		if !(r >= '0' && r <= '9' || r >= 'a' && r <= 'f' || r >= 'A' && r <= 'F') {
			return false
		}
	}
	return s != ""
}

func (c *checker) checkB2() {
	if len(c.ds.B2) == 0 && len(c.ds.Sources) == 0 {
		return
	}
	// Corpus manifest: by source_id and by dataset.
	bySource := map[string][]*model.CorpusEntry{}
	var byPath []*model.CorpusEntry
	revisions := map[string][]string{}
	for i := range c.ds.Corpus {
		r := &c.ds.Corpus[i]
		if !r.Typed {
			continue
		}
		if r.V.SourceID != "" {
			bySource[r.V.SourceID] = append(bySource[r.V.SourceID], &r.V)
		} else {
			byPath = append(byPath, &r.V)
		}
		// an entry without dataset names a revision of any dataset
		revisions[r.V.Dataset] = append(revisions[r.V.Dataset], r.V.Revision)
	}
	// sourceEntries finds a gold source's manifest entries: by source_id, or,
	// for entries written without one, by path ("mmlongbench:doc.pdf" ends
	// with ":doc.pdf").
	sourceEntries := func(id string) []*model.CorpusEntry {
		es := bySource[id]
		for _, e := range byPath {
			p := strings.TrimPrefix(e.Path, "./")
			if p != "" && (id == p || strings.HasSuffix(id, ":"+p) || strings.HasSuffix(id, "/"+p) || strings.HasSuffix(id, ":"+pathBase(p))) {
				es = append(es, e)
			}
		}
		return es
	}
	haveCorpus := c.has(model.FormatCorpusManifest) || len(c.ds.Corpus) > 0
	// Sources registry: by dataset.
	registered := map[string][]model.Source{}
	for _, s := range c.ds.Sources {
		if s.Typed {
			registered[s.V.Dataset] = append(registered[s.V.Dataset], s.V)
		}
	}
	haveSources := c.has(model.FormatSources) || len(c.ds.Sources) > 0
	c.checkSourcesSelf()

	type splitCount struct {
		n, u  int
		files map[string]bool
	}
	splits := map[string]*splitCount{}
	once := onceSet{}
	for _, r := range c.ds.B2 {
		if !r.Typed {
			continue
		}
		a := r.V
		at := func(rule *finding.Rule, p string, format string, args ...any) {
			c.add(rule.At(c.ds.Path(r.Loc), int(r.Line), p, format, args...))
		}

		// Constraint 3 and the answer's type.
		if a.Unanswerable {
			if len(a.Gold) > 0 {
				at(ruleB2UnanswerableGold, "/gold", "unanswerable annotation has %s; gold must be []", plural(len(a.Gold), "gold entry", "gold entries"))
			}
			if rawKind(a.Answer) != "null" {
				at(ruleB2UnanswerableAnswer, "/answer", "unanswerable annotation has an answer; it must be null")
			}
			if a.AnswerFormat != "none" {
				at(ruleB2UnanswerableAnswer, "/answer_format", "unanswerable annotation has answer_format %q; it must be \"none\"", a.AnswerFormat)
			}
		} else {
			if len(a.Gold) == 0 {
				at(ruleB2AnswerableGold, "/gold", "answerable annotation has no gold; name the source region that answers it")
			}
			if rule, p, msg := answerFormatProblem(a.AnswerFormat, a.Answer); msg != "" {
				at(rule, p, "%s", msg)
			}
		}

		// Constraints 4 and 6.
		if msg := asOfProblem(a.AsOf); msg != "" {
			at(ruleB2AsOf, "/as_of", "%s", msg)
		}
		if a.Split != "dev" && a.Split != "test" {
			at(ruleB2Split, "/split", "split %q is not \"dev\" or \"test\"", a.Split)
		} else {
			sc := splits[a.Split]
			if sc == nil {
				sc = &splitCount{files: map[string]bool{}}
				splits[a.Split] = sc
			}
			sc.n++
			if a.Unanswerable {
				sc.u++
			}
			sc.files[c.ds.Path(r.Loc)] = true
		}

		// Constraint 7, source ids and regions.
		if !haveCorpus {
			if once.first(ruleB2CorpusAbsent.Code, c.ds.Path(r.Loc)) {
				c.add(ruleB2CorpusAbsent.At(c.ds.Path(r.Loc), 0, "", "no corpus manifest was loaded: origin.revision (constraint 7), gold source_id and region extents of this file are not checked"))
			}
		} else if revs := append(append([]string(nil), revisions[a.Origin.Dataset]...), revisions[""]...); len(revs) == 0 {
			at(ruleB2Revision, "/origin/dataset", "dataset %q has no entry in the corpus manifest, so revision %q cannot be found", a.Origin.Dataset, a.Origin.Revision)
		} else {
			found := false
			for _, rv := range revs {
				found = found || revisionMatch(rv, a.Origin.Revision)
			}
			if !found {
				at(ruleB2Revision, "/origin/revision", "revision %q of %q is not in the corpus manifest (it has %s)", a.Origin.Revision, a.Origin.Dataset, listSome(revs))
			}
		}
		for i := range a.Gold {
			for _, k := range []string{"atom_id", "chunk_id", "atom", "chunk", "atom_ids", "chunk_ids"} {
				if v, ok := rawField(r.Raw, "gold", i, k); ok {
					at(ruleB2GoldAtom, jsonl.Pointer("gold", i, k), "gold[%d] names %s %s instead of a region of its source", i, k, showValue(v))
				}
			}
		}
		for i, g := range a.Gold {
			var src *model.CorpusEntry
			if haveCorpus {
				entries := sourceEntries(g.SourceID)
				if len(entries) == 0 {
					at(ruleB2Source, jsonl.Pointer("gold", i, "source_id"), "source_id %q is not in the corpus manifest", g.SourceID)
				} else {
					src = entries[0]
					for _, e := range entries {
						if revisionMatch(e.Revision, a.Origin.Revision) {
							src = e
							break
						}
					}
					if src.Modality != "" && a.Modality != "" && src.Modality != a.Modality {
						at(ruleB2SourceModality, jsonl.Pointer("gold", i, "source_id"), "source %q is %s in the corpus manifest, the annotation is %s", g.SourceID, src.Modality, a.Modality)
					}
				}
			}
			region, ok := rawField(r.Raw, "gold", i, "region")
			if !ok {
				region = nil
				if g.Region != nil {
					region = g.Region
				}
			}
			if ps := checkRegion(a.Modality, region, src); len(ps) > 0 {
				base := jsonl.Pointer("gold", i, "region")
				for _, p := range ps {
					at(p.rule, base+p.pointer, "%s", p.msg)
				}
			}
		}

		// Constraint 1.
		if !haveSources {
			if once.first(ruleB2SourcesAbsent.Code, c.ds.Path(r.Loc)) {
				c.add(ruleB2SourcesAbsent.At(c.ds.Path(r.Loc), 0, "", "no annotation-source registry was loaded: constraint 1 (annotation_source registered) is not checked for this file"))
			}
		} else {
			ok := false
			for _, s := range registered[a.Origin.Dataset] {
				ok = ok || strings.TrimSpace(s.AnnotationSource) != ""
			}
			if !ok {
				msg := "dataset %q is not in the annotation-source registry"
				if len(registered[a.Origin.Dataset]) > 0 {
					msg = "dataset %q is registered without an annotation_source"
				}
				at(ruleB2SourceUnregistered, "/origin/dataset", msg, a.Origin.Dataset)
			}
		}
	}

	// Constraint 3's target, per split over every loaded b-2 annotation.
	min := c.opt.UnanswerableMinShare
	for _, split := range slices.Sorted(maps.Keys(splits)) {
		sc := splits[split]
		if min <= 0 || float64(sc.u) >= min*float64(sc.n) {
			continue
		}
		files := slices.Sorted(maps.Keys(sc.files))
		where := ""
		if len(files) > 1 {
			where = fmt.Sprintf(" (across %d files: %s)", len(files), strings.Join(files, ", "))
		}
		c.add(ruleB2Share.At(files[0], 0, "",
			"split %s: %d of %d annotations are unanswerable (%.1f %%), below the %.0f %% target%s",
			split, sc.u, sc.n, 100*float64(sc.u)/float64(sc.n), 100*min, where))
	}
}

// pathBase is the last element of a slash-separated path.
func pathBase(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[i+1:]
	}
	return p
}

func knownAnswerFormat(f string) bool {
	switch f {
	case "str", "int", "float", "list", "none":
		return true
	}
	return false
}

// answerFormatProblem checks an answerable annotation's answer against its
// declared answer_format and returns the rule, pointer and message of the
// first problem ("" when none). An unknown answer_format is the schema's
// finding (schema.enum), not repeated here.
func answerFormatProblem(format string, answer model.Raw) (*finding.Rule, string, string) {
	kind := rawKind(answer)
	switch {
	case format == "none":
		return ruleB2AnswerFormat, "/answer_format", "answer_format \"none\" is only for unanswerable annotations; this one is answerable"
	case !knownAnswerFormat(format):
		return nil, "", ""
	case kind == "null":
		return ruleB2AnswerFormat, "/answer", fmt.Sprintf("answer is null but answer_format is %s; only unanswerable annotations have a null answer", format)
	}
	text := strings.TrimSpace(string(answer))
	if s, ok := rawString(answer); ok {
		text = s
	}
	mismatch := func(want string) (*finding.Rule, string, string) {
		if kind == "string" {
			return ruleB2AnswerType, "/answer", fmt.Sprintf("answer %q does not read as %s, but answer_format is %s", clip(text, 60), want, format)
		}
		return ruleB2AnswerType, "/answer", fmt.Sprintf("answer is a JSON %s but answer_format is %s (want %s)", kind, format, want)
	}
	switch format {
	case "int":
		if kind == "string" && numericText(text, true) && strings.HasSuffix(strings.TrimSpace(text), "%") {
			// "21%" reads as the integer 21, but it is a percentage: a
			// ratio, not the count an int declares
			return ruleB2AnswerType, "/answer", fmt.Sprintf("answer %q is a percentage, but answer_format is int: it would be read as the integer %s; declare float (a percentage is a ratio, as MMLongBench-Doc writes \"18.29%%\" under Float) or str",
				clip(text, 60), strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(text), "%")))
		}
		if kind == "number" && !rawInteger(answer) || kind == "string" && !numericText(text, true) || kind != "number" && kind != "string" {
			return mismatch("an integer")
		}
	case "float":
		if kind == "string" && !numericText(text, false) || kind != "number" && kind != "string" {
			return mismatch("a number")
		}
	case "str":
		if kind != "string" {
			return mismatch("a string")
		}
	case "list":
		t := strings.TrimSpace(text)
		if kind == "string" && !(strings.HasPrefix(t, "[") && strings.HasSuffix(t, "]")) || kind != "array" && kind != "string" {
			return mismatch("a list")
		}
	}
	return nil, "", ""
}

// numericText reports whether an answer's text reads as a number: an
// optional sign, an optional currency sign, digits (with "," thousands
// separators), an optional fraction (not when integer is set), and an
// optional trailing "%".
func numericText(s string, integer bool) bool {
	t := strings.TrimSpace(s)
	t = strings.TrimSpace(strings.TrimSuffix(t, "%"))
	t = strings.TrimPrefix(strings.TrimPrefix(t, "-"), "+")
	for _, cur := range []string{"$", "€", "£", "¥", "￥"} {
		t = strings.TrimPrefix(t, cur)
	}
	if t == "" {
		return false
	}
	intPart, frac, hasFrac := strings.Cut(t, ".")
	if hasFrac && (integer || frac == "" || strings.Trim(frac, "0123456789") != "") {
		return false
	}
	intPart = strings.ReplaceAll(intPart, ",", "")
	return intPart != "" && strings.Trim(intPart, "0123456789") == "" || intPart == "" && hasFrac
}

// checkSourcesSelf flags registry entries whose annotation_source reads like
// a model, OCR or the system under test.
func (c *checker) checkSourcesSelf() {
	words := map[string]bool{}
	for _, w := range c.opt.SelfAnnotationWords {
		words[strings.ToLower(w)] = true
	}
	for _, s := range c.ds.Sources {
		if !s.Typed {
			continue
		}
		toks := strings.FieldsFunc(strings.ToLower(s.V.AnnotationSource), func(r rune) bool {
			return !unicode.IsLetter(r) && !unicode.IsDigit(r)
		})
		for _, t := range toks {
			if words[t] {
				c.add(ruleB2SourceSelf.At(c.ds.Path(s.Loc), int(s.Line), "/annotation_source",
					"annotation_source %q of %q mentions %q: gold must come from third-party human annotation, not a model, OCR or the system under test", s.V.AnnotationSource, s.V.Dataset, t))
				break
			}
		}
	}
}

// listSome quotes up to three distinct values, sorted, for a message.
func listSome(vs []string) string {
	set := map[string]bool{}
	for _, v := range vs {
		set[v] = true
	}
	ks := slices.Sorted(maps.Keys(set))
	var q []string
	for i, k := range ks {
		if i == 3 {
			q = append(q, fmt.Sprintf("and %d more", len(ks)-3))
			break
		}
		q = append(q, fmt.Sprintf("%q", k))
	}
	return strings.Join(q, ", ")
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
