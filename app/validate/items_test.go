package validate

import (
	"math/rand/v2"
	"testing"

	"eval752/app/dataset"
	"eval752/app/model"
)

// Fixtures follow seed 004's own example item.
const (
	goodMCQ   = `{"id":"q-001","type":"mcq_single","inputs":{"text":"法国的首都是？","images":[],"audio":[],"video":[]},"choices":["伦敦","巴黎","柏林","马德里"],"answer":"巴黎","checker":null,"criteria":null,"meta":{"source":"geography-basics"}}`
	goodMulti = `{"id":"q-002","type":"mcq_multi","inputs":{"text":"Which are prime?"},"choices":["2","3","4","6"],"answer":["2","3"]}`
	goodFree  = `{"id":"img-001","type":"freeform","inputs":{"text":"描述你在这张图片中看到了什么。","images":["assets/cat.jpg"]},"answer":"一只猫坐在窗台上。"}`
	goodCode  = `{"id":"code-001","type":"code","inputs":{"text":"Write add(a, b)."},"answer":"def add(a, b):\n    return a + b"}`
	goodJudge = `{"id":"judge-001","type":"judge_pairwise","inputs":{"text":"Explain recursion."},"choices":["Recursion is when a function calls itself.","It is a loop."],"answer":"A","criteria":"Prefer the response that is correct and complete."}`
)

func items(lines ...string) func() *dataset.Dataset {
	return func() *dataset.Dataset {
		ds := newDS(model.FormatItem)
		for i, l := range lines {
			ds.Items = append(ds.Items, rec[model.Item]("items.jsonl", i+1, l))
		}
		return ds
	}
}

var itemCases = []ruleCase{
	{name: "good items", code: "item.text-empty", ds: items(goodMCQ, goodMulti, goodFree, goodCode, goodJudge)},
	{name: "blank prompt", code: "item.text-empty", ds: items(goodMCQ, patch(goodFree, "inputs/text", "  \n")),
		want: []string{"items.jsonl:2:/inputs/text"}},
	// A missing inputs.text is schema.required's finding; the rule stays
	// silent so one defect gives one finding.
	{name: "prompt key missing", code: "item.text-empty", ds: items(patch(goodFree, "inputs/text", del))},

	{name: "four choices", code: "item.choices", ds: items(goodMCQ, goodMulti)},
	{name: "one choice", code: "item.choices", ds: items(patch(goodMCQ, "choices", raw(`["巴黎"]`))),
		want: []string{"items.jsonl:1:/choices"}, msg: "needs at least 2 choices, has 1"},
	{name: "no choices mcq_multi", code: "item.choices", ds: items(patch(goodMulti, "choices", del)),
		want: []string{"items.jsonl:1:/choices"}},
	{name: "blank choice", code: "item.choices", ds: items(patch(goodMCQ, "choices", raw(`["巴黎"," ","柏林"]`))),
		want: []string{"items.jsonl:1:/choices/1"}},

	{name: "distinct", code: "item.choice-duplicate", ds: items(goodMCQ)},
	{name: "repeated option", code: "item.choice-duplicate", ds: items(patch(goodMCQ, "choices", raw(`["伦敦","巴黎","伦敦"]`))),
		want: []string{"items.jsonl:1:/choices/2"}, msg: `choice "伦敦" repeats choice 0`},

	{name: "right types", code: "item.answer-type", ds: items(goodMCQ, goodMulti, goodFree, goodCode)},
	{name: "multi answer as string", code: "item.answer-type", ds: items(patch(goodMulti, "answer", "2")),
		want: []string{"items.jsonl:1:/answer"}},
	{name: "single answer as array", code: "item.answer-type", ds: items(patch(goodMCQ, "answer", raw(`["巴黎"]`))),
		want: []string{"items.jsonl:1:/answer"}},
	{name: "freeform answer as number", code: "item.answer-type", ds: items(patch(goodFree, "answer", raw(`42`))),
		want: []string{"items.jsonl:1:/answer"}},

	{name: "answers are choices", code: "item.answer-not-choice", ds: items(goodMCQ, goodMulti)},
	{name: "letter instead of text", code: "item.answer-not-choice", ds: items(patch(goodMCQ, "answer", "B")),
		want: []string{"items.jsonl:1:/answer"}, msg: `answer must be the choice text, not its letter ("巴黎")`},
	{name: "text not among choices", code: "item.answer-not-choice", ds: items(patch(goodMCQ, "answer", "罗马")),
		want: []string{"items.jsonl:1:/answer"}},
	{name: "multi element outside", code: "item.answer-not-choice", ds: items(patch(goodMulti, "answer", raw(`["2","5"]`))),
		want: []string{"items.jsonl:1:/answer/1"}},
	{name: "choices that are letters", code: "item.answer-not-choice",
		ds: items(patch(goodMCQ, "choices", raw(`["A","B"]`), "answer", "B"))},

	{name: "answers present", code: "item.answer-empty", ds: items(goodMulti, goodFree, goodCode)},
	{name: "empty multi", code: "item.answer-empty", ds: items(patch(goodMulti, "answer", raw(`[]`))),
		want: []string{"items.jsonl:1:/answer"}},
	{name: "blank freeform, missing code answer", code: "item.answer-empty",
		ds:   items(patch(goodFree, "answer", " "), patch(goodCode, "answer", del)),
		want: []string{"items.jsonl:1:/answer", "items.jsonl:2:/answer"}},

	{name: "set answer", code: "item.answer-duplicate", ds: items(goodMulti)},
	{name: "repeated element", code: "item.answer-duplicate", ds: items(patch(goodMulti, "answer", raw(`["2","3","2"]`))),
		want: []string{"items.jsonl:1:/answer/2"}},

	{name: "two responses", code: "item.judge-choices", ds: items(goodJudge)},
	{name: "three responses", code: "item.judge-choices", ds: items(patch(goodJudge, "choices", raw(`["a","b","c"]`))),
		want: []string{"items.jsonl:1:/choices"}},
	{name: "identical responses", code: "item.judge-choices", ds: items(patch(goodJudge, "choices", raw(`["same","same"]`))),
		want: []string{"items.jsonl:1:/choices/1"}},
	{name: "blank response B", code: "item.judge-choices", ds: items(patch(goodJudge, "choices", raw(`["a",""]`))),
		want: []string{"items.jsonl:1:/choices/1"}},

	{name: "verdicts A and tie", code: "item.judge-answer", ds: items(goodJudge, patch(goodJudge, "id", "j2", "answer", "tie"))},
	{name: "verdict C", code: "item.judge-answer", ds: items(patch(goodJudge, "answer", "C")),
		want: []string{"items.jsonl:1:/answer"}},
	{name: "verdict missing", code: "item.judge-answer", ds: items(patch(goodJudge, "answer", del)),
		want: []string{"items.jsonl:1:/answer"}},

	{name: "rubric given", code: "item.judge-criteria", ds: items(goodJudge, patch(goodJudge, "id", "j2", "criteria", raw(`{"helpfulness":"…"}`)))},
	{name: "no rubric", code: "item.judge-criteria", ds: items(patch(goodJudge, "criteria", nil), patch(goodJudge, "id", "j2", "criteria", "")),
		want: []string{"items.jsonl:1:/criteria", "items.jsonl:2:/criteria"}},
	{name: "criteria not required on freeform", code: "item.judge-criteria", ds: items(goodFree)},
}

// A bundle "d.eval752.zip" holding one section and the assets given.
func assetBundle(assets []string, lines ...string) func() *dataset.Dataset {
	return func() *dataset.Dataset {
		ds := newDS(model.FormatBundle, model.FormatItem)
		b := &dataset.Bundle{Path: "d.eval752.zip", Sections: []string{"d.eval752.zip!sections/s.jsonl"}}
		for _, a := range assets {
			b.Assets = append(b.Assets, dataset.Asset{Path: a, Full: "d.eval752.zip!" + a, Size: 1})
		}
		ds.Bundles = append(ds.Bundles, b)
		for i, l := range lines {
			ds.Items = append(ds.Items, rec[model.Item]("d.eval752.zip!sections/s.jsonl", i+1, l))
		}
		return ds
	}
}

var assetCases = []ruleCase{
	{name: "clean path", code: "asset.bad-path", ds: assetBundle([]string{"assets/cat.jpg"}, goodFree)},
	{name: "traversal, absolute, outside assets, url", code: "asset.bad-path",
		ds: items(patch(goodFree, "inputs/images", raw(`["../secret.png","/etc/passwd","photo.jpg","https://x.invalid/a.png","assets/./cat.jpg"]`))),
		want: []string{"items.jsonl:1:/inputs/images/0", "items.jsonl:1:/inputs/images/1", "items.jsonl:1:/inputs/images/2",
			"items.jsonl:1:/inputs/images/3", "items.jsonl:1:/inputs/images/4"}},
	{name: "traversal in audio", code: "asset.bad-path",
		ds:   items(patch(goodFree, "inputs/audio", raw(`["assets/../../x.wav"]`))),
		want: []string{"items.jsonl:1:/inputs/audio/0"}, msg: "path traversal"},

	{name: "present", code: "asset.missing", ds: assetBundle([]string{"assets/cat.jpg"}, goodFree)},
	{name: "absent", code: "asset.missing", ds: assetBundle([]string{"assets/cat.jpg"}, patch(goodFree, "inputs/video", raw(`["assets/clip.mp4"]`))),
		want: []string{"d.eval752.zip!sections/s.jsonl:1:/inputs/video/0"}},
	{name: "case differs", code: "asset.missing", ds: assetBundle([]string{"assets/Cat.jpg"}, goodFree),
		want: []string{"d.eval752.zip!sections/s.jsonl:1:/inputs/images/0"}},

	{name: "in a bundle", code: "asset.unchecked", ds: assetBundle([]string{"assets/cat.jpg"}, goodFree)},
	{name: "loose file, once", code: "asset.unchecked", ds: items(goodFree, patch(goodFree, "id", "img-002")),
		want: []string{"items.jsonl:0:"}},
	{name: "loose file without assets", code: "asset.unchecked", ds: items(goodMCQ)},

	{name: "all used", code: "asset.unreferenced", ds: assetBundle([]string{"assets/cat.jpg"}, goodFree)},
	{name: "one unused", code: "asset.unreferenced", ds: assetBundle([]string{"assets/cat.jpg", "assets/unused.png"}, goodFree),
		want: []string{"d.eval752.zip!assets/unused.png:0:"}},
}

var idCases = []ruleCase{
	{name: "distinct ids", code: "id.duplicate", ds: items(goodMCQ, goodMulti, goodFree)},
	{name: "same id in one file", code: "id.duplicate", ds: items(goodMCQ, goodMulti, patch(goodFree, "id", "q-001")),
		want: []string{"items.jsonl:3:/id"}, msg: `duplicate id "q-001" (first at items.jsonl:1)`},
	{name: "same id across sections of a bundle and formats", code: "id.duplicate",
		ds: func() *dataset.Dataset {
			ds := assetBundle([]string{"assets/cat.jpg"}, goodFree)()
			ds.Items = append(ds.Items, rec[model.Item]("d.eval752.zip!sections/a.jsonl", 4, patch(goodMCQ, "id", "img-001")))
			ds.B2 = append(ds.B2, rec[model.B2]("d.eval752.zip!sections/z.jsonl", 2, patch(goodB2, "query_id", "img-001")))
			return ds
		},
		// sorted by path: a.jsonl:4 is first, s.jsonl:1 and z.jsonl:2 repeat it.
		want: []string{"d.eval752.zip!sections/s.jsonl:1:/id", "d.eval752.zip!sections/z.jsonl:2:/query_id"},
		msg:  "first at d.eval752.zip!sections/a.jsonl:4"},
	{name: "loose files of one format share a namespace", code: "id.duplicate",
		ds: func() *dataset.Dataset {
			ds := newDS(model.FormatB2)
			ds.B2 = append(ds.B2, rec[model.B2]("sets/dev.jsonl", 1, goodB2), rec[model.B2]("sets/test.jsonl", 1, goodB2))
			return ds
		},
		want: []string{"sets/test.jsonl:1:/query_id"}},
	// a result names its question by id alone: an eval752 item and a
	// seed-003 question given loose with one id are ambiguous
	{name: "loose files of different formats share the ids", code: "id.duplicate",
		ds: func() *dataset.Dataset {
			ds := items(patch(goodMCQ, "id", "q1"))()
			ds.RAG = append(ds.RAG, rec[model.RAGQuestion]("rag/questions.jsonl", 1, patch(goodRAG, "qid", "q1")))
			return ds
		},
		want: []string{"rag/questions.jsonl:1:/qid"}},
	{name: "loose files of different formats, distinct ids", code: "id.duplicate",
		ds: func() *dataset.Dataset {
			ds := items(patch(goodMCQ, "id", "q1"))()
			ds.RAG = append(ds.RAG, rec[model.RAGQuestion]("rag/questions.jsonl", 1, patch(goodRAG, "qid", "q2")))
			return ds
		}},

	{name: "ids set", code: "id.empty", ds: items(goodMCQ)},
	// No id key at all: schema.required reports it, not id.empty.
	{name: "id key missing", code: "id.empty", ds: items(patch(goodMCQ, "id", del))},
	{name: "blank qid", code: "id.empty",
		ds: func() *dataset.Dataset {
			ds := newDS(model.FormatRAGQuestion)
			ds.RAG = append(ds.RAG, rec[model.RAGQuestion]("rag/questions.jsonl", 3, patch(goodRAG, "qid", " ")))
			return ds
		},
		want: []string{"rag/questions.jsonl:3:/qid"}},

	{name: "different questions", code: "id.duplicate-question", ds: items(goodMCQ, goodMulti, goodFree)},
	{name: "same text after width, space and case folding", code: "id.duplicate-question",
		ds:   items(patch(goodCode, "inputs/text", "What is  2+2?"), patch(goodCode, "id", "c2", "inputs/text", " what IS ２＋２？")),
		want: []string{"items.jsonl:2:/inputs/text"}, msg: "same question as items.jsonl:1"},
	{name: "same text, different image", code: "id.duplicate-question",
		ds: items(goodFree, patch(goodFree, "id", "img-002", "inputs/images", raw(`["assets/dog.jpg"]`)))},
	{name: "same text, different choices", code: "id.duplicate-question",
		ds: items(goodMCQ, patch(goodMCQ, "id", "q-009", "choices", raw(`["巴黎","里昂"]`)))},
	{name: "v2 repeated question", code: "id.duplicate-question",
		ds: func() *dataset.Dataset {
			ds := newDS(model.FormatV2Question)
			v := `{"id":"D001","category":"direct","question":"生产经营单位的主要负责人负什么责任？","answer":"x","provenance":[{"doc":"law","clause":"第五条"}],"joint":false,"split":"dev","origin":"v2"}`
			ds.V2 = append(ds.V2, rec[model.V2Question]("v2.jsonl", 1, v), rec[model.V2Question]("v2.jsonl", 2, patch(v, "id", "D002")))
			return ds
		},
		want: []string{"v2.jsonl:2:/question"}},
	{name: "rag repeated query", code: "id.duplicate-question",
		ds: func() *dataset.Dataset {
			ds := newDS(model.FormatRAGQuestion)
			ds.RAG = append(ds.RAG, rec[model.RAGQuestion]("q.jsonl", 1, goodRAG), rec[model.RAGQuestion]("q.jsonl", 2, patch(goodRAG, "qid", "q2")))
			return ds
		},
		want: []string{"q.jsonl:2:/query"}},
}

func TestNormalizeText(t *testing.T) {
	// Expected forms written by hand from the rule: width fold, whitespace
	// collapse, trim, Latin lower case, CJK untouched.
	cases := []struct{ in, want string }{
		{"  What is\t2+2? ", "what is 2+2?"},
		{"ＡＢＣ　ｄｅｆ１２３", "abc def123"},
		{"法国的首都是？", "法国的首都是?"},
		{"Ünïcode  ÉTÉ", "ünïcode été"},
		{"Ω Σ", "Ω Σ"}, // Greek is not Latin: left as is
		{"", ""},
	}
	for _, c := range cases {
		if got := NormalizeText(c.in); got != c.want {
			t.Errorf("NormalizeText(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestLetterIndex(t *testing.T) {
	cases := []struct {
		s    string
		n    int
		want int
	}{{"B", 4, 1}, {"b", 4, 1}, {"(C)", 4, 2}, {"D.", 4, 3}, {"E", 4, -1}, {"AB", 4, -1}, {"巴黎", 4, -1}}
	for _, c := range cases {
		if got := letterIndex(c.s, c.n); got != c.want {
			t.Errorf("letterIndex(%q, %d) = %d, want %d", c.s, c.n, got, c.want)
		}
	}
}

// TestNormalizeASCIISameAsRunes: the ASCII shortcut of NormalizeText gives
// the rune-by-rune builder's key for every ASCII string (random strings of
// letters, digits, punctuation and every ASCII white space, seeded).
func TestNormalizeASCIISameAsRunes(t *testing.T) {
	alphabet := "aZ9 ?\t\n\v\f\r.Bz  "
	rng := rand.New(rand.NewPCG(752, 10))
	cases := []string{"", " ", "a", "A", " a", "a ", "a  b", "a\tb", "\x00", "\x7f", "\x1f x"}
	for i := 0; i < 20000; i++ {
		b := make([]byte, rng.IntN(12))
		for j := range b {
			b[j] = alphabet[rng.IntN(len(alphabet))]
		}
		cases = append(cases, string(b))
	}
	for c := 0; c < 128; c++ {
		cases = append(cases, string(rune(c)), "x"+string(rune(c))+"Y")
	}
	for _, s := range cases {
		got, ok := normalizeASCII(s)
		if want := normalizeRunes(s); !ok || got != want {
			t.Fatalf("normalizeASCII(%q) = %q, %v; normalizeRunes %q", s, got, ok, want)
		}
	}
	if _, ok := normalizeASCII("é"); ok {
		t.Error("normalizeASCII took a non-ASCII string")
	}
}
