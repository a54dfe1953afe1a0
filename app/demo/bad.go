package demo

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// PlantedProblem is one defect BuildBad puts into the demo, with the rule
// code a correct validator must report for it.
type PlantedProblem struct {
	Code  string // the finding code expected
	Entry string // the bundle entry that holds it
	What  string // what was planted
}

// Planted lists every problem of the mixed-bad bundle (docs/demo.md shows it
// as a table; the tests check that each code is reported).
var Planted = []PlantedProblem{
	{"jsonl.syntax", "sections/general.jsonl", "a line cut off in the middle of an object"},
	{"jsonl.duplicate-key", "sections/general.jsonl", `an item with "answer" twice`},
	{"jsonl.invalid-utf8", "sections/general.jsonl", "a line with a GB18030 byte sequence"},
	{"id.duplicate", "sections/general.jsonl", "a second item with id ps-001"},
	{"item.answer-not-choice", "sections/general.jsonl", "an mcq_single whose answer is not one of its choices"},
	{"item.judge-choices", "sections/general.jsonl", "a judge_pairwise item with three responses"},
	{"asset.missing", "sections/general.jsonl", "an item whose image assets/missing-photo.png is not in the bundle"},
	{"bundle.version-hash", "meta.json", "version_hash of the good demo, stale after the changes"},
	{"bundle.manifest-sha256", "manifest.json", "a wrong sha256 listed for assets/plug-label.png"},
	{"zip.path-traversal", "../outside.txt", "an entry whose name climbs out of the bundle"},
	{"b2.unanswerable-gold", "sections/b2-dev.jsonl", "an unanswerable annotation that still has gold"},
	{"b2.region-shape", "sections/b2-dev.jsonl", "a pdf gold region given as a bbox"},
	{"b2.gold-whole-file", "sections/b2-dev.jsonl", "a ui_screenshot gold bbox covering the whole screenshot"},
	{"b2.as-of", "sections/b2-dev.jsonl", `as_of "last Tuesday"`},
	{"b2.revision-unknown", "sections/b2-dev.jsonl", "origin.revision not in the corpus manifest"},
	{"b2.annotation-source-unregistered", "sections/b2-test.jsonl", "origin.dataset missing from the sources registry (its revision is in the manifest)"},
	{"v2.cross-provenance", "sections/v2-test.jsonl", "a cross question with one provenance"},
	{"v2.answer-not-verbatim", "sections/v2-test.jsonl", "an answer paraphrased instead of copied from its clause"},
	{"v2.refuse-provenance", "sections/v2-test.jsonl", "a refuse question that cites a clause"},
	{"rag.sha256-mismatch", "sections/rag-test.jsonl", "an anchor whose evidence_sha256 is not the hash of its span"},
	{"rag.offsets-outside", "sections/rag-test.jsonl", "an anchor whose offsets run past the end of the document"},
	{"rag.unanswerable-reference", "sections/rag-test.jsonl", "answerable=false with a reference answer"},
	{"rag.searchable-unapproved", "corpus/documents.jsonl", "a QUARANTINED_LOCAL_REVIEW document marked searchable"},
	{"rag.judgment-grade", "corpus/anchored_judgments.jsonl", "a judgment graded 5 (scale is 0–3)"},
	{"result.unknown-item", "results.jsonl", "a result for an item that does not exist"},
	{"result.run-unlisted", "results.jsonl", "a result of a run run_config.json does not describe"},
}

// BuildBad writes the "mixed-bad" bundle: the demo with the Planted problems,
// for golden tests of the validator and for trying the findings view.
func BuildBad(w io.Writer) error {
	files, err := BadFiles()
	if err != nil {
		return err
	}
	return writeZip(w, files)
}

// BadFiles returns the mixed-bad bundle's entries.
func BadFiles() (map[string][]byte, error) {
	files, formats, err := build()
	if err != nil {
		return nil, err
	}
	appendLines := func(name string, lines ...string) {
		b := files[name]
		for _, l := range lines {
			b = append(b, l...)
			b = append(b, '\n')
		}
		files[name] = b
	}
	// a line of an existing record, decoded, changed and re-encoded
	edit := func(name, id string, fn func(map[string]any)) (string, error) {
		for _, l := range strings.Split(string(files[name]), "\n") {
			var m map[string]any
			if json.Unmarshal([]byte(l), &m) != nil {
				continue
			}
			if m["query_id"] == id || m["qid"] == id || m["id"] == id {
				// a copy with its own wording, so it is not also a duplicate question
				for _, k := range []string{"question", "query"} {
					if q, ok := m[k].(string); ok {
						m[k] = "[planted copy] " + q
					}
				}
				fn(m)
				var b bytes.Buffer
				enc := json.NewEncoder(&b)
				enc.SetEscapeHTML(false)
				if err := enc.Encode(m); err != nil {
					return "", err
				}
				return strings.TrimSuffix(b.String(), "\n"), nil
			}
		}
		return "", fmt.Errorf("demo: %s has no record %s", name, id)
	}

	appendLines("sections/general.jsonl",
		`{"id":"bad-001","type":"mcq_single","inputs":{"text":"Which plug is rated for 16 A?"},"choices":["Type A","Type B"`,
		`{"id":"bad-002","type":"freeform","inputs":{"text":"What voltage is the DEMO PLUG rated for?"},"answer":"250 V","answer":"230 V","meta":{"split":"dev"}}`,
		"{\"id\":\"bad-003\",\"type\":\"freeform\",\"inputs\":{\"text\":\"\xb5\xe7\xc8\xc8\xcb\xae\xba\xf8\"},\"answer\":\"x\"}",
		`{"id":"ps-001","type":"freeform","inputs":{"text":"How many amperes does a 2000 W heater draw at 230 V?"},"answer":"8.7 A","meta":{"split":"dev"}}`,
		`{"id":"bad-005","type":"mcq_single","inputs":{"text":"Which colour is the earth wire in the demo handbook?"},"choices":["Green and yellow","Blue","Brown"],"answer":"Black","meta":{"split":"test"}}`,
		`{"id":"bad-006","type":"judge_pairwise","inputs":{"text":"Which of the three answers is best?"},"choices":["Answer one.","Answer two.","Answer three."],"answer":"A","criteria":"Prefer the safest answer.","meta":{"split":"test"}}`,
		`{"id":"bad-007","type":"freeform","inputs":{"text":"What does the label in the photo say?","images":["assets/missing-photo.png"]},"answer":"DEMO","meta":{"split":"test"}}`,
	)

	var b2Bad []string
	for _, e := range []struct {
		id string
		fn func(map[string]any)
	}{
		{"safety-manuals:manual-heater.pdf:7", func(m map[string]any) { // unanswerable with gold
			m["query_id"] = "bad-b2:unanswerable-gold"
			m["gold"] = []any{map[string]any{"source_id": "safety-manuals:manual-heater.pdf", "region": map[string]any{"page": 2}}}
		}},
		{"safety-manuals:manual-kettle.pdf:1", func(m map[string]any) { // pdf region as a bbox
			m["query_id"] = "bad-b2:region-shape"
			m["gold"] = []any{map[string]any{"source_id": "safety-manuals:manual-kettle.pdf", "region": map[string]any{"bbox": []any{10, 10, 200, 80}}}}
		}},
		{"app-screens:recall-app-home.png:15", func(m map[string]any) { // the whole screenshot
			m["query_id"] = "bad-b2:whole-file"
			m["gold"] = []any{map[string]any{"source_id": "app-screens:recall-app-home.png", "region": map[string]any{"bbox": []any{0, 0, 1170, 2532}}}}
		}},
		{"safety-manuals:manual-kettle.pdf:2", func(m map[string]any) {
			m["query_id"] = "bad-b2:as-of"
			m["as_of"] = "last Tuesday"
		}},
		{"support-logs:firmware/thermal_cutoff.c:28", func(m map[string]any) {
			m["query_id"] = "bad-b2:revision"
			m["origin"].(map[string]any)["revision"] = "0000000deadbeef"
		}},
	} {
		l, err := edit("sections/b2-dev.jsonl", e.id, e.fn)
		if err != nil {
			return nil, err
		}
		b2Bad = append(b2Bad, l)
	}
	appendLines("sections/b2-dev.jsonl", b2Bad...)
	// a dataset whose files are in the corpus manifest but that nobody registered
	l, err := edit("sections/b2-test.jsonl", "safety-manuals:manual-heater.pdf:3", func(m map[string]any) {
		m["query_id"] = "bad-b2:unregistered"
		o := m["origin"].(map[string]any)
		o["dataset"], o["revision"] = "eval752-demo/scraped-forum", "77aa0c1e9f02"
		m["gold"] = []any{map[string]any{"source_id": "scraped-forum:thread-0042.pdf", "region": map[string]any{"page": 1}}}
	})
	if err != nil {
		return nil, err
	}
	appendLines("sections/b2-test.jsonl", l)
	appendLines("corpus/manifest.jsonl",
		`{"source_id":"scraped-forum:thread-0042.pdf","dataset":"eval752-demo/scraped-forum","revision":"77aa0c1e9f02","path":"thread-0042.pdf","sha256":"`+sha256Hex([]byte("thread-0042"))+`","modality":"pdf","pages":3}`)

	appendLines("sections/v2-test.jsonl",
		`{"id":"X90","category":"cross","question":"生产者的主体责任是什么？","answer":"生产者对其生产的消费品的安全负主体责任","provenance":[{"doc":"reg-cps","clause":"第二条"}],"joint":true,"split":"test","origin":"v2"}`,
		`{"id":"D90","category":"direct","question":"召回信息多久内发布？","answer":"生产者要在两周左右发布召回消息","provenance":[{"doc":"reg-recall","clause":"第四条"}],"joint":false,"split":"test","origin":"v2"}`,
		`{"id":"R90","category":"refuse","question":"演示公司有多少名员工？","answer":null,"provenance":[{"doc":"reg-cps","clause":"第五条"}],"joint":false,"split":"test","origin":"v2"}`,
	)

	var ragBad []string
	for _, e := range []struct {
		id string
		fn func(map[string]any)
	}{
		{"q_test_001", func(m map[string]any) {
			m["qid"] = "q_bad_sha"
			g := m["gold_evidence_groups"].([]any)[0].(map[string]any)
			g["evidence_sha256"] = strings.Repeat("ab", 32)
		}},
		{"q_test_007", func(m map[string]any) {
			m["qid"] = "q_bad_offsets"
			g := m["gold_evidence_groups"].([]any)[0].(map[string]any)
			g["char_start"], g["char_end"] = 5000, 5040
		}},
		{"q_test_015", func(m map[string]any) {
			m["qid"] = "q_bad_unanswerable"
			m["reference_answer"] = "5 stars"
		}},
	} {
		l, err := edit("sections/rag-test.jsonl", e.id, e.fn)
		if err != nil {
			return nil, err
		}
		ragBad = append(ragBad, l)
	}
	appendLines("sections/rag-test.jsonl", ragBad...)
	appendLines("corpus/documents.jsonl",
		`{"doc_id":"doc_supplier_audit","title":"Supplier audit notes (fictional, not yet reviewed)","source_version":"draft","document_version_id":"docver_supplier_audit_draft","license_id":"INTERNAL-DEMO","confidentiality":"internal","security_review":"pending","review_state":"QUARANTINED_LOCAL_REVIEW","searchable":true,"split":"test","language":"en"}`)
	appendLines("corpus/anchored_judgments.jsonl",
		`{"schema_version":1,"qid":"q_test_001","grade":5,"reason":"very relevant","doc_id":"doc_powerbank_spec","document_version_id":"docver_powerbank_spec_v3","page_no":1,"char_start":0,"char_end":10,"annotator_id":"ann_C","adjudication_status":"agreed"}`)
	appendLines("results.jsonl",
		`{"run":"bm25","item_id":"ps-999","response":"8.2 A"}`,
		`{"run":"gpt-free-trial","item_id":"ps-001","response":"8.2 A"}`,
	)
	files["../outside.txt"] = []byte("this entry tries to escape the bundle folder\n")

	// re-list the files honestly (the escaping entry is not listed), except
	// for one planted wrong hash; meta.json is the good demo's, so its
	// version_hash is now stale
	delete(formats, "../outside.txt")
	listed := map[string][]byte{}
	for n, b := range files {
		if n != "../outside.txt" {
			listed[n] = b
		}
	}
	var man map[string]any
	if err := json.Unmarshal(manifestJSON(listed, formats), &man); err != nil {
		return nil, err
	}
	for _, f := range man["files"].([]any) {
		if fm := f.(map[string]any); fm["path"] == "assets/plug-label.png" {
			fm["sha256"] = strings.Repeat("0", 64)
		}
	}
	mb, err := json.MarshalIndent(man, "", "  ")
	if err != nil {
		return nil, err
	}
	files["manifest.json"] = append(mb, '\n')
	return files, nil
}
