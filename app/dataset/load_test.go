package dataset

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"eval752/app/finding"
	"eval752/app/model"
)

func memInput(name string, b []byte) Input {
	return Input{Name: name, R: bytes.NewReader(b), Size: int64(len(b))}
}

func load(t *testing.T, inputs ...Input) *Dataset {
	t.Helper()
	ds, err := Load(context.Background(), inputs, Options{})
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	return ds
}

func codes(fs finding.List) []string {
	var out []string
	for _, f := range fs {
		out = append(out, f.String())
	}
	return out
}

// TestSeedExamplesLoadClean loads files written exactly as the seeds write
// their examples (testdata/seed: seed 004's two items, seed 000 §1 with the
// first alternative of each "a | b" slot, seed 003 §1.3, §4.3, §6.2, §10
// verbatim, trec_eval's reference case a). Each must be detected as its
// format, give its records typed, and produce no finding at all.
func TestSeedExamplesLoadClean(t *testing.T) {
	cases := []struct {
		file    string
		format  model.Format
		records func(*Dataset) int
		want    int // records in the file (counted by hand)
	}{
		{"items.jsonl", model.FormatItem, func(d *Dataset) int { return len(d.Items) }, 2},
		{"b2.jsonl", model.FormatB2, func(d *Dataset) int { return len(d.B2) }, 1},
		{"questions.jsonl", model.FormatRAGQuestion, func(d *Dataset) int { return len(d.RAG) }, 1},
		{"documents.jsonl", model.FormatRAGDocument, func(d *Dataset) int { return len(d.Documents) }, 1},
		{"predictions.jsonl", model.FormatRAGPrediction, func(d *Dataset) int { return len(d.Preds) }, 1},
		{"config.yaml", model.FormatRAGConfig, func(d *Dataset) int { return len(d.Configs) }, 1},
		{"qrels.tsv", model.FormatTRECQrels, func(d *Dataset) int { return len(d.Qrels[0].Judgments) }, 2},
		{"run.trec", model.FormatTRECRun, func(d *Dataset) int { return len(d.Runs[0].Lines) }, 72},          // wc -l of trec case a_binary/run
		{"qrels.trec", model.FormatTRECQrels, func(d *Dataset) int { return len(d.Qrels[0].Judgments) }, 31}, // wc -l of a_binary/qrels
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join("testdata", "seed", c.file))
			if err != nil {
				t.Fatal(err)
			}
			ds := load(t, memInput(c.file, b))
			if len(ds.Findings) != 0 {
				t.Errorf("findings: %q", codes(ds.Findings))
			}
			if got := ds.Inputs[0].Format; got != c.format {
				t.Errorf("format = %q, want %q", got, c.format)
			}
			if !ds.Has[c.format] {
				t.Errorf("Has[%s] not set", c.format)
			}
			if got := c.records(ds); got != c.want {
				t.Errorf("records = %d, want %d", got, c.want)
			}
		})
	}
}

func TestSeedExampleTypedValues(t *testing.T) {
	b, _ := os.ReadFile("testdata/seed/questions.jsonl")
	ds := load(t, memInput("eval/questions.jsonl", b))
	q := ds.RAG[0]
	// values copied from seed 003 §4.3
	if !q.Typed || q.V.QID != "q_test_0042" || *q.V.GoldEvidenceGroups[0].CharStart != 1280 || q.Line != 1 {
		t.Errorf("typed record = %+v", q)
	}
	b, _ = os.ReadFile("testdata/seed/config.yaml")
	ds = load(t, memInput("runs/dense/config.yaml", b))
	cfg := ds.Configs[0].V
	// seed 003 §10: chunk_size: 512, dataset_sha256: (empty → null), enable_thinking: false
	if cfg["chunk_size"] != any(jsonNumber("512")) || cfg["dataset_sha256"] != nil || cfg["enable_thinking"] != false ||
		cfg["embedding_model"] != "text-embedding-v4" || len(cfg) != 61 {
		t.Errorf("config = %v (len %d)", cfg, len(cfg))
	}
}

func TestPredictionRunIDDefault(t *testing.T) {
	b, _ := os.ReadFile("testdata/seed/predictions.jsonl")
	ds := load(t, memInput("runs/dense-512/predictions.jsonl", b))
	if got := ds.Preds[0].V.RunID; got != "dense-512" {
		t.Errorf("RunID = %q, want the folder name dense-512", got)
	}
}

// TestBadLinesLocated: each bad line of a hand-made file is flagged at its
// own line; good lines are not; reading goes on after a malformed line.
func TestBadLinesLocated(t *testing.T) {
	for _, name := range []string{"bad_items.jsonl", "bad_b2.jsonl", "bad_v2.jsonl", "bad_rag.jsonl", "bad_first.jsonl"} {
		t.Run(name, func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join("testdata", name))
			if err != nil {
				t.Fatal(err)
			}
			ds := load(t, memInput(name, b))
			// every line that carries "BAD" in the file is expected to be flagged; others not
			lines := strings.Split(string(b), "\n")
			flagged := map[int]bool{}
			for _, f := range ds.Findings {
				if f.Severity == finding.Error {
					flagged[f.Line] = true
				}
			}
			for i, l := range lines {
				n := i + 1
				if strings.TrimSpace(l) == "" {
					continue
				}
				bad := strings.Contains(l, "BAD")
				if bad && !flagged[n] {
					t.Errorf("line %d is bad but not flagged: %s", n, l)
				}
				if !bad && flagged[n] {
					t.Errorf("line %d is good but flagged: %q", n, codes(ds.Findings))
				}
			}
		})
	}
}

func jsonNumber(s string) any { return json.Number(s) }

// TestResultRetrievedSpellings: results.jsonl may list retrieved ids bare or
// as {"id", "score"} objects (model.Retrieved); both decode typed, in order.
func TestResultRetrievedSpellings(t *testing.T) {
	body := `{"run": "a", "item_id": "q1", "retrieved": ["c1", {"id": "c2", "score": 1.5}]}` + "\n"
	ds := load(t, memInput("results.jsonl", []byte(body)))
	if len(ds.Findings) != 0 || len(ds.Results) != 1 {
		t.Fatalf("findings %v", codes(ds.Findings))
	}
	r := ds.Results[0]
	if !r.Typed || len(r.V.Retrieved) != 2 || r.V.Retrieved[0].ID != "c1" || r.V.Retrieved[1].ID != "c2" || *r.V.Retrieved[1].Score != 1.5 {
		t.Errorf("result %+v", r)
	}
	// a checked, typed result keeps its compact value only (compact.go)
	if r.Raw != nil {
		t.Errorf("Raw kept for a typed result: %v", r.Raw)
	}
}

// FuzzLoad: any bytes, as a loose file or as a bundle entry, load without a
// panic; every problem is a finding.
func FuzzLoad(f *testing.F) {
	f.Add([]byte(`{"id": "q", "type": "freeform", "inputs": {"text": "x"}, "answer": "y"}`), "a.jsonl")
	f.Add([]byte("chunk_size: 512\nname: 'x'\n  nested: 1\n- a\n"), "config.yaml")
	f.Add([]byte("q 0 d 1\nq Q0 d 1 2.5 t\n"), "qrels")
	f.Add([]byte("[{\"doc\": \"a\", \"text\": \"b\"}, 3]"), "index.json")
	// issue 9's classes: numbers no float64 holds (crash, CPU), in JSONL,
	// a JSON array file and YAML; NaN TREC scores; deep YAML and JSON;
	// a long first line; UTF-16, NUL, invalid UTF-8, duplicate keys
	f.Add([]byte(`{"run":"r","item_id":"q","latency_ms":1e-9999999}`+"\n"+`{"run":"r","item_id":"q2","latency_ms":1e99999999999,"cost_usd":-1e999999}`), "results.jsonl")
	f.Add([]byte(`[{"run":"r","item_id":"q","latency_ms":0e99999999},{"run":"r","item_id":"q","latency_ms":1.`+strings.Repeat("0", 200)+`1}]`), "results.json")
	f.Add([]byte("run_id: a\nchunk_size: 1e-9999999\ntop_k: 1e999999\n"), "config.yaml")
	f.Add([]byte("q1 Q0 d1 1 NaN t\nq1 Q0 d2 2 inf t\nq1 Q0 d3 3 0.5abc t\nq1 Q0 d4 4 1e400 t\n"), "run.txt")
	var deep strings.Builder
	for i := 0; i < 600; i++ {
		deep.WriteString(strings.Repeat(" ", i) + "k:\n")
	}
	f.Add([]byte(deep.String()), "config.yaml")
	f.Add([]byte(`{"id":"q","x":`+strings.Repeat("[", 600)+strings.Repeat("]", 600)+`}`), "a.jsonl")
	f.Add([]byte(`{"run":"r","item_id":"q1","output":"`+strings.Repeat("x", 70<<10)+`"}`+"\n"+`{"run":"r","item_id":"q2","latency_ms":-5}`), "results.jsonl")
	f.Add([]byte("\xff\xfe{\x00\"\x00a\x00\"\x00:\x001\x00}\x00"), "results.jsonl")
	f.Add([]byte("{\"run\":\"r\",\x00\"item_id\":\"q\xff\"}\n{\"a\":1,\"a\":2}\n"), "results.jsonl")
	f.Fuzz(func(t *testing.T, b []byte, name string) {
		ds, err := Load(context.Background(), []Input{{Name: name, R: bytes.NewReader(b), Size: int64(len(b))}}, Options{})
		if err != nil || ds == nil {
			t.Fatalf("Load: %v", err)
		}
		var zb bytes.Buffer
		w := zip.NewWriter(&zb)
		for _, n := range []string{"manifest.json", "sections/a.jsonl", "corpus/x.json", "runs/r/config.yaml"} {
			fw, _ := w.Create(n)
			fw.Write(b)
		}
		w.Close()
		if _, err := Load(context.Background(), []Input{{Name: "z.zip", R: bytes.NewReader(zb.Bytes()), Size: int64(zb.Len())}}, Options{}); err != nil {
			t.Fatalf("Load zip: %v", err)
		}
	})
}

// BenchmarkLoadB2 measures reading + schema-checking + typed decoding of a
// 10 000-line b-2 set (the seed 000 §1 example repeated with distinct ids).
func BenchmarkLoadB2(b *testing.B) {
	data := b2BenchData(b)
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		ds, err := Load(context.Background(), []Input{memInput("b2.jsonl", data)}, Options{})
		if err != nil || len(ds.B2) != 10000 || len(ds.Findings) != 0 {
			b.Fatalf("%v %d %v", err, len(ds.B2), ds.Findings)
		}
	}
}

// TestJSONNamedJSONL: a .json file holding JSONL is read line by line.
func TestJSONNamedJSONL(t *testing.T) {
	ds := load(t, memInput("items.json", []byte(seedFile(t, "items.jsonl"))))
	if len(ds.Findings) != 0 || len(ds.Items) != 2 || ds.Items[1].Line != 2 || ds.Inputs[0].Lines != 2 {
		t.Errorf("findings %v items %d", codes(ds.Findings), len(ds.Items))
	}
}

// TestRepeatedInput: the same file given twice is read once (one info, no
// duplicate-id findings against itself); a different file of the same name
// is read as its own input.
func TestRepeatedInput(t *testing.T) {
	items := seedFile(t, "items.jsonl")
	ds := load(t, memInput("a.jsonl", []byte(items)), memInput("a.jsonl", []byte(items)))
	if got := codes(ds.Findings); len(got) != 1 || !strings.Contains(got[0], "info input.repeated") || len(ds.Items) != 2 {
		t.Errorf("same file twice: %v, %d items", got, len(ds.Items))
	}
	other := strings.Replace(items, "q-001", "q-009", 1)
	ds = load(t, memInput("a.jsonl", []byte(items)), memInput("a.jsonl", []byte(other)))
	if len(ds.Findings) != 0 || len(ds.Items) != 4 {
		t.Errorf("two files named a.jsonl: %v, %d items", codes(ds.Findings), len(ds.Items))
	}
}

// TestIntegralFloats: an integer written with a fraction or exponent (10.0,
// 1e2) is an integer, as in JSON Schema — the record decodes and keeps its
// value (Python writers produce 34.0); a real fraction where an integer is
// due still fails and is reported.
func TestIntegralFloats(t *testing.T) {
	ds := load(t, memInput("results.jsonl", []byte(
		`{"run":"r","item_id":"a","response":"y","latency_ms":12.0,"usage":{"input_tokens":1e2,"output_tokens":3.0}}`+"\n"+
			`{"run":"r","item_id":"b","response":"y","usage":{"input_tokens":2.5}}`+"\n")))
	if len(ds.Results) != 2 || !ds.Results[0].Typed || ds.Results[0].V.Usage == nil ||
		ds.Results[0].V.Usage.InputTokens != 100 || ds.Results[0].V.Usage.OutputTokens != 3 {
		t.Fatalf("integral floats: %+v", ds.Results)
	}
	if ds.Results[1].Typed || len(ds.Findings) != 1 || ds.Findings[0].Line != 2 {
		t.Errorf("a fraction for an integer: typed %v, findings %v", ds.Results[1].Typed, codes(ds.Findings))
	}
}

// TestLooseRunFolderFiles: the files of a runs/<id>/ folder given one by one
// (seed 003 §10) are read as inside a bundle: metrics.json and errors.jsonl
// are read wherever they are (rag.metrics, rag.errors); another JSON file
// of no format is an error.
func TestLooseRunFolderFiles(t *testing.T) {
	ds := load(t,
		memInput("exp/runs/r1/metrics.json", []byte(`{"ndcg@10": 0.5}`)),
		memInput("exp/runs/r1/errors.jsonl", []byte(`{"code": "RETRIEVAL_MISS", "qid": "q1"}`+"\n")),
		memInput("notes/metrics.json", []byte(`{"ndcg@10": 0.5}`)),
		memInput("other.json", []byte(`{"ndcg@10": 0.5}`)),
	)
	got := codes(ds.Findings)
	want := []string{
		"other.json: error format.unknown",
	}
	if len(ds.Metrics) != 2 || len(ds.Errors) != 1 {
		t.Errorf("metrics.json files read: %d, want 2; errors records %d, want 1", len(ds.Metrics), len(ds.Errors))
	}
	if len(got) != len(want) {
		t.Fatalf("findings %v", got)
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("finding %d = %q, want %s…", i, got[i], want[i])
		}
	}
}

// A folder's hidden entries are those below the folder itself whose name
// starts with "."; the folder's own name does not count.
func TestHiddenInFolder(t *testing.T) {
	for rel, want := range map[string]bool{
		"exp/runs/r1/predictions.jsonl": false,
		"exp/.DS_Store":                 true,
		"exp/.git/config":               true,
		"exp/runs/r1/.config.yaml.swp":  true,
		".exp/data/chunks.jsonl":        false, // the picked folder may be hidden itself
		"exp/data/v1.2.jsonl":           false,
		"predictions.jsonl":             false,
	} {
		if got := HiddenInFolder(rel); got != want {
			t.Errorf("HiddenInFolder(%q) = %v, want %v", rel, got, want)
		}
	}
}

// A number JSON Schema accepts but no reader can hold (an integer beyond 64
// bits) is one format.decode finding at the value's own pointer, in words,
// without Go's type names; one no float64 holds (1e400) is number.range
// (docs/formats.md § Numbers), found before the schema check, and not
// reported twice.
func TestDecodeProblemLocated(t *testing.T) {
	for _, c := range []struct {
		name, line, ptr, says, code string
	}{
		{"questions.jsonl", `{"qid":"q1","query":"?","answerable":true,"reference_answer":"x","gold_evidence_groups":[{"required":true,"doc_id":"d","char_start":1,"char_end":2},{"required":true,"doc_id":"d","char_start":1,"char_end":1000000000000000000000000000000}],"split":"test"}`,
			"/gold_evidence_groups/1/char_end", "1000000000000000000000000000000 does not fit a 64-bit integer", "format.decode"},
		{"b2.jsonl", `{"query_id":"b1","modality":"pdf","question":"?","answer":"a","answer_format":"str","gold":[{"source_id":"s.pdf","region":{"page":1e400}}],"scope":{"holder":"h","session":null,"scenario":"qa"},"as_of":"2024-01-01T00:00:00Z","unanswerable":false,"origin":{"dataset":"d","revision":"r","item":"row:0","license":"cc"},"split":"dev"}`,
			"/gold/0/region/page", "1e400 does not fit a 64-bit float", "number.range"},
	} {
		ds := load(t, memInput(c.name, []byte(c.line+"\n")))
		var got []finding.Finding
		for _, f := range ds.Findings {
			if f.Code == "format.decode" || f.Code == "number.range" {
				got = append(got, f)
			}
		}
		if len(got) != 1 || got[0].Code != c.code || got[0].Pointer != c.ptr || !strings.Contains(got[0].Message, c.says) || strings.Contains(got[0].Message, "Go struct") {
			t.Errorf("%s: findings %+v; want one %s at %s saying %q", c.name, got, c.code, c.ptr, c.says)
		}
	}
}

// Seed 000 §2 constraint 5: scope.holder decides visibility, so an empty
// holder (which would make the item's holder check vacuous) is an error at
// its pointer.
func TestEmptyHolder(t *testing.T) {
	line := `{"query_id":"b1","modality":"pdf","question":"?","answer":"a","answer_format":"str","gold":[{"source_id":"s.pdf","region":{"page":1}}],"scope":{"holder":"","session":null,"scenario":"qa"},"as_of":"2024-01-01T00:00:00Z","unanswerable":false,"origin":{"dataset":"d","revision":"r","item":"row:0","license":"cc"},"split":"dev"}`
	for holder, code := range map[string]string{`""`: "schema.range", `"  "`: "schema.pattern"} {
		ds := load(t, memInput("b2.jsonl", []byte(strings.Replace(line, `"holder":""`, `"holder":`+holder, 1)+"\n")))
		found := false
		for _, f := range ds.Findings {
			found = found || f.Pointer == "/scope/holder" && f.Code == code && strings.Contains(f.Message, "must not be")
		}
		if !found {
			t.Errorf("holder %s: findings %+v; want %s at /scope/holder", holder, ds.Findings, code)
		}
	}
}
