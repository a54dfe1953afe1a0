package resolve

import (
	"encoding/json"
	"slices"
	"testing"

	"eval752/app/model"
)

func ip(i int) *int         { return &i }
func fp(f float64) *float64 { return &f }

func atoms() *AtomTable {
	return NewAtomTable([]model.Atom{
		// pdf: two blocks of page 5, a page-level atom of page 6
		{AtomID: "p5b1", SourceID: "doc.pdf", Page: ip(5), Block: ip(1)},
		{AtomID: "p5b2", SourceID: "doc.pdf", Page: ip(5), Block: ip(2)},
		{AtomID: "p6", SourceID: "doc.pdf", Page: ip(6)},
		{AtomID: "w", SourceID: "whole.pdf"},
		// image
		{AtomID: "i1", SourceID: "img.png"},
		{AtomID: "i2", SourceID: "img.png"},
		// ui_screenshot: two boxes side by side, one below
		{AtomID: "s1", SourceID: "ui.png", BBox: []float64{0, 0, 100, 100}},
		{AtomID: "s2", SourceID: "ui.png", BBox: []float64{100, 0, 200, 100}},
		{AtomID: "s3", SourceID: "ui.png", BBox: []float64{0, 100, 200, 200}},
		// video: [0,10) [10,20) [20,30)
		{AtomID: "v1", SourceID: "v.mp4", TStart: fp(0), TEnd: fp(10)},
		{AtomID: "v2", SourceID: "v.mp4", TStart: fp(10), TEnd: fp(20)},
		{AtomID: "v3", SourceID: "v.mp4", TStart: fp(20), TEnd: fp(30)},
		// code: a.go 1–20 {Foo}, 21–40 {Bar,Baz}, 35–60 {Baz} (overlapping chunk); b.go 1–10
		{AtomID: "k1", SourceID: "repo", Path: "a.go", LineStart: ip(1), LineEnd: ip(20), Symbols: []string{"Foo"}},
		{AtomID: "k2", SourceID: "repo", Path: "a.go", LineStart: ip(21), LineEnd: ip(40), Symbols: []string{"Bar", "Baz"}},
		{AtomID: "k4", SourceID: "repo", Path: "a.go", LineStart: ip(35), LineEnd: ip(60), Symbols: []string{"Baz"}},
		{AtomID: "k3", SourceID: "repo", Path: "b.go", LineStart: ip(1), LineEnd: ip(10)},
		// conversation turns
		{AtomID: "t1", SourceID: "chat", Turn: ip(1)},
		{AtomID: "t2", SourceID: "chat", Turn: ip(2)},
		// char spans [0,100) [100,200)
		{AtomID: "c1", SourceID: "txt", CharStart: ip(0), CharEnd: ip(100)},
		{AtomID: "c2", SourceID: "txt", CharStart: ip(100), CharEnd: ip(200)},
		{AtomID: "c1", SourceID: "dup"}, // duplicate id: first row wins
	})
}

// region decodes a JSON region the way the dataset does (float64 numbers).
func region(js string) map[string]any {
	var m map[string]any
	if err := json.Unmarshal([]byte(js), &m); err != nil {
		panic(err)
	}
	return m
}

func TestResolveRegion(t *testing.T) {
	tab := atoms()
	cases := []struct {
		modality, source, region string
		atoms                    []string
		problem                  string
		label                    string
	}{
		{"pdf", "doc.pdf", `{"page":5}`, []string{"p5b1", "p5b2"}, "", "doc.pdf p.5"},
		{"pdf", "doc.pdf", `{"page":5,"block":2}`, []string{"p5b2"}, "", "doc.pdf p.5 block 2"},
		{"pdf", "doc.pdf", `{"page":6,"block":3}`, []string{"p6"}, "", ""}, // a page atom holds every block
		{"pdf", "doc.pdf", `{"page":9}`, nil, ProblemNoAtom, ""},
		{"pdf", "doc.pdf", `{"page":"5"}`, nil, ProblemBadRegion, ""},
		{"pdf", "whole.pdf", `{"page":1}`, []string{"w"}, ProblemWholeSource, ""},
		{"pdf", "nowhere.pdf", `{"page":1}`, nil, ProblemUnknownSource, ""},
		{"image", "img.png", `{}`, []string{"i1", "i2"}, "", "img.png (whole image)"},
		{"ui_screenshot", "ui.png", `{"bbox":[10,10,50,50]}`, []string{"s1"}, "", "ui.png bbox [10,10,50,50]"},
		{"ui_screenshot", "ui.png", `{"bbox":[50,10,150,50]}`, []string{"s1", "s2"}, ProblemCrosses, ""},
		// touching edges have zero area: s1 (x=100) and s3 (y=100) do not intersect
		{"ui_screenshot", "ui.png", `{"bbox":[100,0,200,100]}`, []string{"s2"}, "", ""},
		{"ui_screenshot", "ui.png", `{"bbox":[150,150,250,250]}`, []string{"s3"}, ProblemPartial, ""},
		{"ui_screenshot", "ui.png", `{"bbox":[300,300,400,400]}`, nil, ProblemNoAtom, ""},
		{"ui_screenshot", "ui.png", `{"bbox":[3,3,1]}`, nil, ProblemBadRegion, ""},
		{"video", "v.mp4", `{"t_start":12,"t_end":18}`, []string{"v2"}, "", "v.mp4 12–18 s"},
		{"video", "v.mp4", `{"t_start":5,"t_end":15}`, []string{"v1", "v2"}, ProblemCrosses, ""},
		{"video", "v.mp4", `{"t_start":25,"t_end":35}`, []string{"v3"}, ProblemPartial, ""},
		{"video", "v.mp4", `{"t_start":10,"t_end":10}`, []string{"v2"}, "", ""}, // an instant at a boundary belongs to the atom it starts
		{"video", "v.mp4", `{"t_start":40,"t_end":50}`, nil, ProblemNoAtom, ""},
		{"video", "v.mp4", `{"t_start":9,"t_end":2}`, nil, ProblemBadRegion, ""},
		{"code", "repo", `{"path":"a.go","symbol":"Foo"}`, []string{"k1"}, "", "repo a.go:Foo"},
		{"code", "repo", `{"path":"a.go","line":25}`, []string{"k2"}, "", "repo a.go:L25"},
		// overlapping chunks both hold line 38: not a boundary crossing
		{"code", "repo", `{"path":"a.go","line":38}`, []string{"k2", "k4"}, "", ""},
		{"code", "repo", `{"path":"a.go","symbol":"Baz"}`, []string{"k2", "k4"}, ProblemCrosses, ""},
		{"code", "repo", `{"path":"b.go","symbol":"Foo"}`, nil, ProblemNoAtom, ""},
		{"code", "repo", `{"path":"a.go"}`, nil, ProblemBadRegion, ""},
		{"conversation", "chat", `{"turn":2}`, []string{"t2"}, "", "chat turn 2"},
		{"conversation", "chat", `{"turn":7}`, nil, ProblemNoAtom, ""},
		{"pdf", "txt", `{"char_start":120,"char_end":180}`, []string{"c2"}, "", "txt [120,180)"},
		{"pdf", "txt", `{"char_start":50,"char_end":150}`, []string{"c1", "c2"}, ProblemCrosses, ""},
		{"pdf", "txt", `{"char_start":150,"char_end":250}`, []string{"c2"}, ProblemPartial, ""},
		{"audio", "chat", `{"turn":1}`, nil, ProblemModality, ""},
	}
	for _, c := range cases {
		r := ResolveRegion(tab, model.B2Gold{SourceID: c.source, Region: region(c.region)}, c.modality)
		if !slices.Equal(r.Atoms, c.atoms) || r.Problem != c.problem || (c.label != "" && r.Label != c.label) {
			t.Errorf("%s %s %s → %v %q %q, want %v %q %q", c.modality, c.source, c.region, r.Atoms, r.Problem, r.Label, c.atoms, c.problem, c.label)
		}
	}
	if !slices.Equal(tab.Duplicates, []string{"c1"}) {
		t.Errorf("Duplicates = %v", tab.Duplicates)
	}
	// json.Number regions (decoded with UseNumber) resolve the same way.
	r := ResolveRegion(tab, model.B2Gold{SourceID: "doc.pdf", Region: map[string]any{"page": json.Number("5"), "block": json.Number("1")}}, "pdf")
	if !slices.Equal(r.Atoms, []string{"p5b1"}) || r.Problem != "" {
		t.Errorf("json.Number region → %v %q", r.Atoms, r.Problem)
	}
}

func TestResolveAnchor(t *testing.T) {
	tab := NewChunkTable([]model.RAGChunk{
		{ChunkID: "ch1", DocID: "d1", DocumentVersionID: "v1", PageNo: ip(1), CharStart: ip(0), CharEnd: ip(100)},
		{ChunkID: "ch2", DocID: "d1", DocumentVersionID: "v1", PageNo: ip(1), CharStart: ip(100), CharEnd: ip(200)},
		{ChunkID: "ch3", DocID: "d1", DocumentVersionID: "v1", PageNo: ip(2), CharStart: ip(200), CharEnd: ip(300)},
		{ChunkID: "ch4", DocID: "d1", DocumentVersionID: "v0", CharStart: ip(0), CharEnd: ip(300)},
		{ChunkID: "ch5", DocID: "d2", PageNo: ip(3)},
	})
	cases := []struct {
		a       Anchor
		atoms   []string
		problem string
		label   string
	}{
		{Anchor{DocID: "d1", VersionID: "v1", CharStart: ip(120), CharEnd: ip(180)}, []string{"ch2"}, "", "d1 [120,180)"},
		{Anchor{DocID: "d1", VersionID: "v1", CharStart: ip(50), CharEnd: ip(150)}, []string{"ch1", "ch2"}, ProblemCrosses, ""},
		{Anchor{DocID: "d1", VersionID: "v1", CharStart: ip(250), CharEnd: ip(350)}, []string{"ch3"}, ProblemPartial, ""},
		{Anchor{DocID: "d1", VersionID: "v1", PageNo: ip(2)}, []string{"ch3"}, "", "d1 p.2"},
		// no version named: every version's chunks; ch4 (v0) holds the span
		{Anchor{DocID: "d1", CharStart: ip(120), CharEnd: ip(180)}, []string{"ch2", "ch4"}, "", ""},
		{Anchor{DocID: "d1", VersionID: "v9", PageNo: ip(1)}, nil, ProblemVersion, ""},
		// chunk without offsets: page fallback
		{Anchor{DocID: "d2", PageNo: ip(3), CharStart: ip(10), CharEnd: ip(20)}, []string{"ch5"}, "", ""},
		{Anchor{DocID: "d3", PageNo: ip(1)}, nil, ProblemUnknownSource, ""},
		{Anchor{DocID: "d1", VersionID: "v1"}, nil, ProblemNoRegion, "d1"},
		{Anchor{DocID: "d1", VersionID: "v1", CharStart: ip(400), CharEnd: ip(500)}, nil, ProblemNoAtom, ""},
		{Anchor{DocID: "d1", VersionID: "v1", PageNo: ip(7)}, nil, ProblemNoAtom, ""},
	}
	for _, c := range cases {
		r := ResolveAnchor(tab, c.a)
		if !slices.Equal(r.Atoms, c.atoms) || r.Problem != c.problem || (c.label != "" && r.Label != c.label) {
			t.Errorf("%s → %v %q %q, want %v %q %q", c.a.Label(), r.Atoms, r.Problem, r.Label, c.atoms, c.problem, c.label)
		}
	}
}

func TestClauseIndex(t *testing.T) {
	x := NewClauseIndex([]model.Clause{
		{Doc: "安全生产法", Clause: "第五条", Text: "生产经营单位的主要负责人是本单位安全生产第一责任人，对本单位的安全生产工作全面负责。"},
		{Doc: "指南", Clause: "第二十八条", Text: "生产经营单位应当对从业人员进行安全生产教育和培训。"},
		{Doc: "指南", Clause: "第二十八条", Text: "生产经营单位必须为从业人员提供符合国家标准的劳动防护用品。"},
	})
	if got := x.Lookup("指南#第二十八条"); len(got) != 2 {
		t.Errorf("bare key names %d entries, want 2", len(got))
	}
	if got := x.Lookup("指南#第二十八条#2"); len(got) != 1 || got[0].Text[len(got[0].Text)-len("劳动防护用品。"):] != "劳动防护用品。" {
		t.Errorf("#2 → %v", got)
	}
	if got := x.Lookup("指南#第二十八条#3"); got != nil {
		t.Errorf("#3 → %v, want nothing", got)
	}
	// seed 002: the duplicate clause number is resolved by the answer text.
	s := AnswerSentences("生产经营单位必须为从业人员提供符合国家标准的劳动防护用品")
	r := x.ResolveProvenance(model.V2Provenance{Doc: "指南", Clause: "第二十八条"}, s)
	if !slices.Equal(r.Atoms, []string{"指南#第二十八条#2"}) || r.Problem != "" {
		t.Errorf("provenance → %v %q", r.Atoms, r.Problem)
	}
	r = x.ResolveProvenance(model.V2Provenance{Doc: "指南", Clause: "第二十八条"}, AnswerSentences("完全无关的答案"))
	if len(r.Atoms) != 2 || r.Problem != ProblemAnswerText {
		t.Errorf("answer not in clause → %v %q", r.Atoms, r.Problem)
	}
	r = x.ResolveProvenance(model.V2Provenance{Doc: "指南", Clause: "第九十九条"}, s)
	if r.Atoms != nil || r.Problem != ProblemNoAtom {
		t.Errorf("unknown clause → %v %q", r.Atoms, r.Problem)
	}
	// Two sentences joined with 「；」: one in the clause is enough to hold the answer.
	if !HoldsAnswer("主要负责人对本单位的安全生产工作全面负责。", AnswerSentences("第一句不在；对本单位的安全生产工作全面负责")) {
		t.Error("HoldsAnswer with a second sentence")
	}
}
