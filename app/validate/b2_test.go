package validate

import (
	"testing"

	"eval752/app/dataset"
	"eval752/app/model"
)

// goodB2 is seed 000 §1's example annotation, completed.
const goodB2 = `{"query_id":"mmlongbench:PH_2016.pdf:0","modality":"pdf","question":"What share of adults said the economy was improving?","answer":"44%","answer_format":"str","gold":[{"source_id":"mmlongbench:PH_2016.pdf","region":{"page":5}}],"scope":{"holder":"owner","session":null,"scenario":"document-qa"},"as_of":"2024-01-01T00:00:00+00:00","unanswerable":false,"origin":{"dataset":"yubo2333/MMLongBench-Doc","revision":"2ff6aa1c","item":"row:0","license":"see dataset card"},"split":"dev"}`

// unanswerableB2 is goodB2 turned into a valid unanswerable annotation.
var unanswerableB2 = patch(goodB2, "query_id", "u1", "question", "What did the CEO say in 2031?",
	"answer", nil, "answer_format", "none", "gold", raw(`[]`), "unanswerable", true)

// corpusLines are the corpus manifest (seed 000 §2.7) the fixtures resolve
// against: one source per modality, with extents.
var corpusLines = []string{
	`{"source_id":"mmlongbench:PH_2016.pdf","dataset":"yubo2333/MMLongBench-Doc","revision":"2ff6aa1c0d9e77","path":"docs/PH_2016.pdf","sha256":"` + shaX + `","modality":"pdf","pages":10}`,
	`{"source_id":"one:page.pdf","dataset":"yubo2333/MMLongBench-Doc","revision":"2ff6aa1c0d9e77","path":"docs/page.pdf","sha256":"` + shaX + `","modality":"pdf","pages":1}`,
	`{"source_id":"ui:shot.png","dataset":"ui/ScreenQA","revision":"v1","path":"shot.png","sha256":"` + shaX + `","modality":"ui_screenshot","width":1280,"height":800}`,
	`{"source_id":"img:cat.jpg","dataset":"ui/ScreenQA","revision":"v1","path":"cat.jpg","sha256":"` + shaX + `","modality":"image"}`,
	`{"source_id":"vid:clip.mp4","dataset":"ui/ScreenQA","revision":"v1","path":"clip.mp4","sha256":"` + shaX + `","modality":"video","duration_s":60}`,
	`{"source_id":"code:repo/main.go","dataset":"ui/ScreenQA","revision":"v1","path":"main.go","sha256":"` + shaX + `","modality":"code","lines":120}`,
	`{"source_id":"conv:d1","dataset":"ui/ScreenQA","revision":"v1","path":"d1.json","sha256":"` + shaX + `","modality":"conversation","turns":12}`,
}

var sourcesLines = []string{
	`{"dataset":"yubo2333/MMLongBench-Doc","annotation_source":"human annotators of the MMLongBench-Doc paper"}`,
	`{"dataset":"ui/ScreenQA","annotation_source":"crowd workers (third-party, double-checked)"}`,
}

// b2Set loads the given annotations as sets/b2.jsonl, with the corpus
// manifest and the sources registry unless told otherwise.
func b2Set(withCorpus, withSources bool, lines ...string) func() *dataset.Dataset {
	return func() *dataset.Dataset {
		ds := newDS(model.FormatB2)
		if withCorpus {
			ds.Has[model.FormatCorpusManifest] = true
			for i, l := range corpusLines {
				ds.Corpus = append(ds.Corpus, rec[model.CorpusEntry]("bench/corpus/manifest.jsonl", i+1, l))
			}
		}
		if withSources {
			ds.Has[model.FormatSources] = true
			for i, l := range sourcesLines {
				ds.Sources = append(ds.Sources, rec[model.Source]("bench/sources.jsonl", i+1, l))
			}
		}
		for i, l := range lines {
			ds.B2 = append(ds.B2, rec[model.B2]("sets/b2.jsonl", i+1, l))
		}
		return ds
	}
}

func b2(lines ...string) func() *dataset.Dataset { return b2Set(true, true, lines...) }

// region makes an annotation of a modality with one gold region.
func region(modality, source, reg string) string {
	return patch(goodB2, "modality", modality, "gold/0/source_id", source, "gold/0/region", raw(reg))
}

var b2Cases = []ruleCase{
	{name: "every legal shape", code: "b2.region-shape", ds: b2(
		goodB2,
		region("pdf", "mmlongbench:PH_2016.pdf", `{"page":5,"block":0}`),
		region("image", "img:cat.jpg", `{}`),
		region("ui_screenshot", "ui:shot.png", `{"bbox":[10,20,300,200.5]}`),
		region("video", "vid:clip.mp4", `{"t_start":1.5,"t_end":3}`),
		region("video", "vid:clip.mp4", `{"t_start":5,"t_end":5}`), // an instant
		region("pdf", "mmlongbench:PH_2016.pdf", `{"page":5.0}`),   // an integer, for JSON Schema too
		region("code", "code:repo/main.go", `{"path":"main.go","symbol":"main"}`),
		region("code", "code:repo/main.go", `{"path":"main.go","line":12}`),
		region("conversation", "conv:d1", `{"turn":2}`),
	)},
	{name: "illegal shapes", code: "b2.region-shape", ds: b2(
		region("pdf", "mmlongbench:PH_2016.pdf", `{"page":"5"}`),
		region("pdf", "mmlongbench:PH_2016.pdf", `{"page":0}`),
		region("pdf", "mmlongbench:PH_2016.pdf", `{"block":2}`),
		region("pdf", "mmlongbench:PH_2016.pdf", `{"page":5,"bbox":[1,2,3,4]}`),
		region("image", "img:cat.jpg", `{"page":1}`),
		region("ui_screenshot", "ui:shot.png", `{"bbox":[300,20,10,200]}`),
		region("video", "vid:clip.mp4", `{"t_start":6,"t_end":5}`),
		region("video", "vid:clip.mp4", `{"t_start":-1,"t_end":5}`),
		region("code", "code:repo/main.go", `{"path":"main.go","symbol":"main","line":3}`),
		region("conversation", "conv:d1", `{"turn":1.5}`),
		region("pdf", "mmlongbench:PH_2016.pdf", `{"page":99999999999999999999}`),
	),
		want: []string{
			"sets/b2.jsonl:1:/gold/0/region/page",
			"sets/b2.jsonl:2:/gold/0/region/page",
			"sets/b2.jsonl:3:/gold/0/region",
			"sets/b2.jsonl:4:/gold/0/region/bbox",
			"sets/b2.jsonl:5:/gold/0/region/page",
			"sets/b2.jsonl:6:/gold/0/region/bbox",
			"sets/b2.jsonl:7:/gold/0/region/t_end",
			"sets/b2.jsonl:8:/gold/0/region/t_start",
			"sets/b2.jsonl:9:/gold/0/region",
			"sets/b2.jsonl:10:/gold/0/region/turn",
			"sets/b2.jsonl:11:/gold/0/region/page",
		}},

	{name: "regions, and image {}", code: "b2.gold-whole-file", ds: b2(
		goodB2,
		region("image", "img:cat.jpg", `{}`),
		region("video", "vid:clip.mp4", `{"t_start":0,"t_end":30}`),
		region("ui_screenshot", "ui:shot.png", `{"bbox":[0,0,1280,799]}`),
		region("pdf", "one:page.pdf", `{"page":1,"block":3}`),
	)},
	{name: "whole files", code: "b2.gold-whole-file", ds: b2(
		region("pdf", "mmlongbench:PH_2016.pdf", `{}`),
		patch(goodB2, "gold/0/region", del),
		region("code", "code:repo/main.go", `{"path":"main.go"}`),
		region("video", "vid:clip.mp4", `{"t_start":0,"t_end":60}`),
		region("ui_screenshot", "ui:shot.png", `{"bbox":[0,0,1280,800]}`),
		region("pdf", "one:page.pdf", `{"page":1}`),
		region("conversation", "conv:d1", `{}`),
	),
		want: []string{
			"sets/b2.jsonl:1:/gold/0/region", "sets/b2.jsonl:2:/gold/0/region", "sets/b2.jsonl:3:/gold/0/region",
			"sets/b2.jsonl:4:/gold/0/region", "sets/b2.jsonl:5:/gold/0/region", "sets/b2.jsonl:6:/gold/0/region",
			"sets/b2.jsonl:7:/gold/0/region",
		}},

	{name: "regions only", code: "b2.gold-atom-id", ds: b2(goodB2, region("image", "img:cat.jpg", `{}`))},
	{name: "atom ids as gold", code: "b2.gold-atom-id", ds: b2(
		patch(goodB2, "gold/0/region", del, "gold/0/atom_id", "atom-17"),
		patch(goodB2, "gold/0/chunk_id", "c3"),
	),
		want: []string{"sets/b2.jsonl:1:/gold/0/atom_id", "sets/b2.jsonl:2:/gold/0/chunk_id"},
		msg:  `gold[0] names atom_id "atom-17" instead of a region of its source`},

	{name: "inside extents", code: "b2.region-extent", ds: b2(
		region("pdf", "mmlongbench:PH_2016.pdf", `{"page":10}`),
		region("ui_screenshot", "ui:shot.png", `{"bbox":[10,10,1280,800.0]}`),
		region("video", "vid:clip.mp4", `{"t_start":59,"t_end":60}`),
		region("code", "code:repo/main.go", `{"path":"main.go","line":120}`),
		region("conversation", "conv:d1", `{"turn":12}`),
	)},
	{name: "outside extents", code: "b2.region-extent", ds: b2(
		region("pdf", "mmlongbench:PH_2016.pdf", `{"page":11}`),
		region("ui_screenshot", "ui:shot.png", `{"bbox":[10,10,1300,200]}`),
		region("video", "vid:clip.mp4", `{"t_start":50,"t_end":61}`),
		region("code", "code:repo/main.go", `{"path":"main.go","line":121}`),
		region("conversation", "conv:d1", `{"turn":13}`),
	),
		want: []string{"sets/b2.jsonl:1:/gold/0/region/page", "sets/b2.jsonl:2:/gold/0/region/bbox",
			"sets/b2.jsonl:3:/gold/0/region/t_end", "sets/b2.jsonl:4:/gold/0/region/line", "sets/b2.jsonl:5:/gold/0/region/turn"},
		msg: "page 11 is past the end of mmlongbench:PH_2016.pdf (10 pages)"},
	{name: "no manifest, no extent check", code: "b2.region-extent",
		ds: b2Set(false, true, region("pdf", "mmlongbench:PH_2016.pdf", `{"page":11}`))},

	{name: "unanswerable with empty gold", code: "b2.unanswerable-gold", ds: b2(unanswerableB2)},
	{name: "unanswerable with gold", code: "b2.unanswerable-gold", ds: b2(patch(unanswerableB2, "gold", raw(`[{"source_id":"mmlongbench:PH_2016.pdf","region":{"page":5}}]`))),
		want: []string{"sets/b2.jsonl:1:/gold"}},

	{name: "null and none", code: "b2.unanswerable-answer", ds: b2(unanswerableB2)},
	{name: "answer and format set", code: "b2.unanswerable-answer", ds: b2(patch(unanswerableB2, "answer", "44%", "answer_format", "str")),
		want: []string{"sets/b2.jsonl:1:/answer", "sets/b2.jsonl:1:/answer_format"}},

	{name: "answerable with gold", code: "b2.answerable-gold", ds: b2(goodB2)},
	{name: "answerable without gold", code: "b2.answerable-gold", ds: b2(patch(goodB2, "gold", raw(`[]`))),
		want: []string{"sets/b2.jsonl:1:/gold"}},

	{name: "types match", code: "b2.answer-format", ds: b2(
		goodB2,
		patch(goodB2, "answer", raw(`42`), "answer_format", "int"),
		patch(goodB2, "answer", raw(`42`), "answer_format", "float"),
		patch(goodB2, "answer", raw(`0.5`), "answer_format", "float"),
		patch(goodB2, "answer", raw(`["a","b"]`), "answer_format", "list"),
	)},
	// Only contradictions with unanswerable=false are errors: answer_format
	// "none" (line 1) and a null answer (line 2). An unknown format is the
	// schema's enum finding, not repeated here (line 3).
	{name: "answerable but none or null", code: "b2.answer-format", ds: b2(
		patch(goodB2, "answer", nil, "answer_format", "none"),
		patch(goodB2, "answer", nil),
		patch(goodB2, "answer_format", "text"),
	),
		want: []string{"sets/b2.jsonl:1:/answer_format", "sets/b2.jsonl:2:/answer"}},

	// Seed 000 §1 stores the answer as the original text (标准答案原文): a
	// string that reads as the declared number, or a list written as text,
	// agrees with its format (MMLongBench-Doc writes "18.29%" for Float).
	{name: "text answers that read as the format", code: "b2.answer-type", ds: b2(
		goodB2,
		patch(goodB2, "answer", raw(`42`), "answer_format", "int"),
		patch(goodB2, "answer", "42", "answer_format", "int"),
		patch(goodB2, "answer", "1,200", "answer_format", "int"),
		patch(goodB2, "answer", raw(`42`), "answer_format", "float"),
		patch(goodB2, "answer", "18.29%", "answer_format", "float"),
		patch(goodB2, "answer", "$49.99", "answer_format", "float"),
		patch(goodB2, "answer", "-0.5", "answer_format", "float"),
		patch(goodB2, "answer", raw(`["a","b"]`), "answer_format", "list"),
		patch(goodB2, "answer", "['a', 'b']", "answer_format", "list"),
	)},
	{name: "answers that do not read as the format", code: "b2.answer-type", ds: b2(
		patch(goodB2, "answer", "yes", "answer_format", "int"),      // 1
		patch(goodB2, "answer", raw(`4.5`), "answer_format", "int"), // 2
		patch(goodB2, "answer", "2.5", "answer_format", "int"),      // 3
		patch(goodB2, "answer", "14:04 CET", "answer_format", "float"),
		patch(goodB2, "answer", "a", "answer_format", "list"),
		patch(goodB2, "answer", raw(`7`), "answer_format", "str"),
	),
		want: []string{"sets/b2.jsonl:1:/answer", "sets/b2.jsonl:2:/answer", "sets/b2.jsonl:3:/answer",
			"sets/b2.jsonl:4:/answer", "sets/b2.jsonl:5:/answer", "sets/b2.jsonl:6:/answer"}},
	// issue 11: "21%" under int reads as the integer 21, but it is a
	// percentage (seed 000 §1: int is an integer answer); say so.
	{name: "a percentage under int", code: "b2.answer-type", ds: b2(
		patch(goodB2, "answer", "21%", "answer_format", "int"),
		patch(goodB2, "answer", "18.29%", "answer_format", "float"), // a percentage under float is accepted
	),
		want: []string{"sets/b2.jsonl:1:/answer"}, msg: `answer "21%" is a percentage, but answer_format is int: it would be read as the integer 21`},

	// 2 of 10 = 20 % ≥ 15 %: silent.
	{name: "20 percent", code: "b2.unanswerable-share", ds: b2(share("dev", 10, 2)...)},
	// 1 of 7 = 14.29 % < 15 % (hand: 1/7 = 0.142857): one warning for the split.
	{name: "14.3 percent", code: "b2.unanswerable-share", ds: b2(append(share("dev", 10, 2), share("test", 7, 1)...)...),
		want: []string{"sets/b2.jsonl:0:"}, msg: "split test: 1 of 7 annotations are unanswerable (14.3 %), below the 15 % target"},
	{name: "disabled", code: "b2.unanswerable-share", ds: b2(share("test", 7, 1)...), opt: &Options{UnanswerableMinShare: -1}},
	// 1 of 5 = 20 % passes the default but not a 25 % target.
	{name: "custom target", code: "b2.unanswerable-share", ds: b2(share("dev", 5, 1)...), opt: &Options{UnanswerableMinShare: 0.25},
		want: []string{"sets/b2.jsonl:0:"}, msg: "1 of 5 annotations are unanswerable (20.0 %), below the 25 % target"},

	{name: "offsets given", code: "b2.as-of", ds: b2(goodB2,
		patch(goodB2, "as_of", "2024-01-01T00:00:00Z"),
		patch(goodB2, "as_of", "2024-01-01T08:00:00.5+08:00"),
		patch(goodB2, "as_of", "2024-01-01T08:00:00+0800"))},
	{name: "date only, no offset, empty", code: "b2.as-of", ds: b2(
		patch(goodB2, "as_of", "2024-01-01"),
		patch(goodB2, "as_of", "2024-01-01T00:00:00"),
		patch(goodB2, "as_of", ""),
		patch(goodB2, "as_of", "yesterday"),
	),
		want: []string{"sets/b2.jsonl:1:/as_of", "sets/b2.jsonl:2:/as_of", "sets/b2.jsonl:3:/as_of", "sets/b2.jsonl:4:/as_of"},
		msg:  "is a date without a time and UTC offset"},

	{name: "dev and test", code: "b2.split", ds: b2(goodB2, patch(goodB2, "split", "test"))},
	{name: "train", code: "b2.split", ds: b2(patch(goodB2, "split", "train")), want: []string{"sets/b2.jsonl:1:/split"}},

	{name: "revision found (abbreviated and exact)", code: "b2.revision-unknown",
		ds: b2(goodB2, patch(goodB2, "origin/revision", "2ff6aa1c0d9e77"))},
	{name: "revision missing, dataset missing, too short", code: "b2.revision-unknown", ds: b2(
		patch(goodB2, "origin/revision", "deadbeef00"),
		patch(goodB2, "origin/dataset", "other/ds"),
		patch(goodB2, "origin/revision", "2ff6"),
	),
		want: []string{"sets/b2.jsonl:1:/origin/revision", "sets/b2.jsonl:2:/origin/dataset", "sets/b2.jsonl:3:/origin/revision"},
		msg:  `revision "deadbeef00" of "yubo2333/MMLongBench-Doc" is not in the corpus manifest (it has "2ff6aa1c0d9e77")`},

	{name: "known source", code: "b2.source-unknown", ds: b2(goodB2)},
	{name: "unknown source", code: "b2.source-unknown", ds: b2(patch(goodB2, "gold/0/source_id", "mmlongbench:nope.pdf")),
		want: []string{"sets/b2.jsonl:1:/gold/0/source_id"}},
	{name: "no manifest: no per-line errors", code: "b2.source-unknown",
		ds: b2Set(false, true, patch(goodB2, "gold/0/source_id", "mmlongbench:nope.pdf"), goodB2)},

	{name: "same modality", code: "b2.source-modality", ds: b2(goodB2)},
	{name: "pdf annotation on a screenshot", code: "b2.source-modality", ds: b2(patch(goodB2, "gold/0/source_id", "ui:shot.png")),
		want: []string{"sets/b2.jsonl:1:/gold/0/source_id"}},

	{name: "manifest loaded", code: "b2.corpus-manifest-absent", ds: b2(goodB2)},
	{name: "manifest absent, once per file", code: "b2.corpus-manifest-absent", ds: b2Set(false, true, goodB2, unanswerableB2),
		want: []string{"sets/b2.jsonl:0:"}},

	{name: "registered", code: "b2.annotation-source-unregistered", ds: b2(goodB2)},
	{name: "unregistered dataset", code: "b2.annotation-source-unregistered",
		ds: func() *dataset.Dataset {
			ds := b2(patch(goodB2, "origin/dataset", "other/ds"), patch(goodB2, "origin/dataset", "blank/ds"))()
			ds.Sources = append(ds.Sources, rec[model.Source]("bench/sources.jsonl", 3, `{"dataset":"blank/ds","annotation_source":""}`))
			return ds
		},
		want: []string{"sets/b2.jsonl:1:/origin/dataset", "sets/b2.jsonl:2:/origin/dataset"}},

	{name: "human sources", code: "b2.annotation-source-self", ds: b2(goodB2)},
	{name: "model-made gold", code: "b2.annotation-source-self",
		ds: func() *dataset.Dataset {
			ds := b2(goodB2)()
			ds.Sources = append(ds.Sources,
				rec[model.Source]("bench/sources.jsonl", 3, `{"dataset":"x/a","annotation_source":"GPT-4 generated answers"}`),
				rec[model.Source]("bench/sources.jsonl", 4, `{"dataset":"x/b","annotation_source":"self (OCR output)"}`))
			return ds
		},
		want: []string{"bench/sources.jsonl:3:/annotation_source", "bench/sources.jsonl:4:/annotation_source"}},

	{name: "registry loaded", code: "b2.sources-absent", ds: b2(goodB2)},
	{name: "registry absent, once per file", code: "b2.sources-absent", ds: b2Set(true, false, goodB2, goodB2),
		want: []string{"sets/b2.jsonl:0:"}},
}

// share makes n annotations of a split, u of them unanswerable.
func share(split string, n, u int) []string {
	var out []string
	for i := 0; i < n; i++ {
		base := goodB2
		if i < u {
			base = unanswerableB2
		}
		out = append(out, patch(base, "split", split, "query_id", split+"-"+string(rune('a'+i))))
	}
	return out
}

func TestAsOfProblem(t *testing.T) {
	ok := []string{"2024-01-01T00:00:00+00:00", "2024-01-01T00:00:00Z", "2024-02-29T23:59:59.123-05:30", "2024-01-01T00:00:00+0000", "2024-01-01t00:00:00z"}
	bad := []string{"2024-01-01", "2024-01-01T00:00:00", "2024-01-01 00:00:00+00:00", "2023-02-29T00:00:00Z", "01/02/2024"}
	for _, s := range ok {
		if p := asOfProblem(s); p != "" {
			t.Errorf("asOfProblem(%q) = %q, want accepted", s, p)
		}
	}
	for _, s := range bad {
		if p := asOfProblem(s); p == "" {
			t.Errorf("asOfProblem(%q) accepted, want rejected", s)
		}
	}
}

func TestRevisionMatch(t *testing.T) {
	cases := []struct {
		a, b string
		want bool
	}{
		{"2ff6aa1c0d9e77", "2ff6aa1c0d9e77", true},
		{"2ff6aa1c0d9e77", "2ff6aa1", true},  // 7 hex digits, a git short hash
		{"2ff6aa1c0d9e77", "2ff6aa", false},  // too short to be unambiguous
		{"v1.0.0", "v1", false},              // not hex: exact match only
		{"2ff6aa1c0d9e77", "2FF6AA1C", true}, // case-insensitive hex
		{"", "", false},
		// seed 000 §1 writes "2ff6aa...": an ellipsis marks the abbreviation,
		// so 6 hex digits suffice; without it they do not (above)
		{"2ff6aa1c0d9e77", "2ff6aa...", true},
		{"2ff6aa…", "2ff6aa1c0d9e77", true},
		{"2ff6ab1c0d9e77", "2ff6aa...", false},
		{"2ff6aa1c0d9e77", "2ff6a...", false}, // 5 digits: too short even so
	}
	for _, c := range cases {
		if got := revisionMatch(c.a, c.b); got != c.want {
			t.Errorf("revisionMatch(%q, %q) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}
