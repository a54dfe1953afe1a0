package dataset

import (
	"archive/zip"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"eval752/app/model"
)

type zent struct{ name, body string }

func zipOf(t *testing.T, es ...zent) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := zip.NewWriter(&buf)
	for _, e := range es {
		fw, err := w.Create(e.name)
		if err != nil {
			t.Fatal(err)
		}
		fw.Write([]byte(e.body))
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func seedFile(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile("testdata/seed/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func hexSHA(s string) string { h := sha256.Sum256([]byte(s)); return hex.EncodeToString(h[:]) }

// TestSeed004OnlyBundle: a bundle with exactly what seed 004 lists
// (manifest.json, meta.json, sections/*.jsonl, assets/) loads with no finding.
func TestSeed004OnlyBundle(t *testing.T) {
	items := seedFile(t, "items.jsonl")
	photo := "\xff\xd8\xff\xe0 not really a jpeg"
	b := zipOf(t,
		zent{"manifest.json", `{"format_version": 1, "kind": "dataset"}`},
		zent{"meta.json", `{"name": "geo", "description": "demo", "version_hash": "sha256:0000000000000000000000000000000000000000000000000000000000000000"}`},
		zent{"sections/section-1.jsonl", items},
		zent{"sections/section-2.jsonl", items},
		zent{"assets/photo-001.jpg", photo},
	)
	ds := load(t, memInput("bundle.eval752.zip", b))
	if len(ds.Findings) != 0 {
		t.Fatalf("findings: %q", codes(ds.Findings))
	}
	if len(ds.Items) != 4 || len(ds.Bundles) != 1 {
		t.Fatalf("items %d bundles %d", len(ds.Items), len(ds.Bundles))
	}
	bd := ds.Bundles[0]
	if bd.Manifest == nil || bd.Meta == nil || bd.Meta.V.Name != "geo" || bd.RunConfig != nil {
		t.Errorf("companions: %+v %+v", bd.Manifest, bd.Meta)
	}
	if len(bd.Assets) != 1 || bd.Assets[0].Path != "assets/photo-001.jpg" || bd.Assets[0].Full != "bundle.eval752.zip!assets/photo-001.jpg" || bd.Assets[0].Size != int64(len(photo)) {
		t.Errorf("assets %+v", bd.Assets)
	}
	if got := strings.Join(bd.Sections, ","); got != "bundle.eval752.zip!sections/section-1.jsonl,bundle.eval752.zip!sections/section-2.jsonl" {
		t.Errorf("sections %s", got)
	}
	if len(bd.SHA256) != 5 || bd.SHA256["assets/photo-001.jpg"] != hexSHA(photo) || bd.SHA256["sections/section-1.jsonl"] != hexSHA(items) {
		t.Errorf("sha256 %v", bd.SHA256)
	}
	if ds.Path(ds.Items[2].Loc) != "bundle.eval752.zip!sections/section-2.jsonl" || ds.Items[2].Line != 1 || !ds.Items[2].Typed || ds.Items[2].V.ID != "q-001" {
		t.Errorf("item loc %+v", ds.Items[2])
	}
	for _, f := range []model.Format{model.FormatBundle, model.FormatManifest, model.FormatMeta, model.FormatItem} {
		if !ds.Has[f] {
			t.Errorf("Has[%s] missing", f)
		}
	}
	// Inputs: the bundle + manifest + meta + 2 sections (assets are not parsed)
	if len(ds.Inputs) != 5 || ds.Inputs[0].Format != model.FormatBundle || ds.Inputs[0].SHA256 != hexSHA(string(b)) {
		t.Errorf("inputs %+v", ds.Inputs)
	}
	for _, in := range ds.Inputs[1:] {
		if in.Path == "bundle.eval752.zip!sections/section-1.jsonl" && (in.Lines != 2 || in.Format != model.FormatItem || in.SHA256 != hexSHA(items)) {
			t.Errorf("section info %+v", in)
		}
	}
}

// TestFullBundle: the optional corpus/ and runs/ folders, results, run
// config, checkers, a manifest that forces a section's format.
func TestFullBundle(t *testing.T) {
	b := zipOf(t,
		zent{"manifest.json", `{"format_version": 1, "kind": "dataset", "files": [{"path": "sections/rag.jsonl", "format": "rag.question"}]}`},
		zent{"meta.json", `{"name": "all", "owner": "team-x"}`},
		zent{"run_config.json", `{"runs": [{"name": "dense"}], "refusal_phrases": ["资料中没有相关信息"]}`},
		zent{"results.jsonl", `{"run": "dense", "item_id": "q-001", "response": "巴黎"}` + "\n"},
		zent{"sections/b2.jsonl", seedFile(t, "b2.jsonl")},
		// content that alone would be detected as a RAG prediction (qid only); the manifest forces rag.question
		zent{"sections/rag.jsonl", `{"qid": "q9", "query": "x", "answerable": false, "gold_evidence_groups": []}` + "\n"},
		zent{"corpus/manifest.jsonl", `{"source_id": "mmlongbench:PH_2016.06.08_Economy-Final.pdf", "dataset": "yubo2333/MMLongBench-Doc", "revision": "2ff6aa...", "path": "docs/PH.pdf", "sha256": "` + strings.Repeat("ab", 32) + `"}` + "\n"},
		zent{"corpus/sources.jsonl", `{"dataset": "yubo2333/MMLongBench-Doc", "annotation_source": "MMLongBench-Doc authors (human)"}` + "\n"},
		zent{"corpus/documents.jsonl", seedFile(t, "documents.jsonl")},
		zent{"corpus/index.json", `[{"doc": "law", "clause": "第一条", "text": "为了加强安全生产工作"}, {"doc": "law", "clause": "第二条", "text": "t"}]`},
		zent{"corpus/docs/PH.pdf", "%PDF-1.4 raw"},
		zent{"runs/dense/predictions.jsonl", seedFile(t, "predictions.jsonl")},
		zent{"runs/dense/config.yaml", seedFile(t, "config.yaml")},
		zent{"runs/dense/qrels.tsv", seedFile(t, "qrels.tsv")},
		zent{"runs/bm25/run.trec", seedFile(t, "run.trec")},
		zent{"checkers/check.py", "print('ok')\n"},
		zent{"notes.txt", "stray"},
	)
	ds := load(t, memInput("all.eval752.zip", b))
	var got []string
	for _, f := range ds.Findings {
		got = append(got, f.Code+"@"+f.Path)
	}
	if strings.Join(got, ",") != "zip.unknown-entry@all.eval752.zip!notes.txt" {
		t.Errorf("findings %v", codes(ds.Findings))
	}
	counts := map[string]int{
		"results": len(ds.Results), "b2": len(ds.B2), "rag": len(ds.RAG), "corpus": len(ds.Corpus), "sources": len(ds.Sources),
		"documents": len(ds.Documents), "clauses": len(ds.Clauses), "preds": len(ds.Preds), "configs": len(ds.Configs),
		"qrels": len(ds.Qrels), "runs": len(ds.Runs), "preds-typed": 0,
	}
	want := map[string]int{"results": 1, "b2": 1, "rag": 1, "corpus": 1, "sources": 1, "documents": 1, "clauses": 2, "preds": 1, "configs": 1, "qrels": 1, "runs": 1, "preds-typed": 0}
	for k, v := range want {
		if counts[k] != v {
			t.Errorf("%s = %d, want %d", k, counts[k], v)
		}
	}
	bd := ds.Bundles[0]
	if bd.RunConfig == nil || len(bd.RunConfig.V.Runs) != 1 || len(bd.Checkers) != 1 || bd.Meta.V.Extra["owner"] != "team-x" {
		t.Errorf("bundle %+v", bd)
	}
	if ds.Preds[0].V.RunID != "dense" {
		t.Errorf("prediction run id %q", ds.Preds[0].V.RunID)
	}
	if ds.Path(ds.Clauses[1].Loc) != "all.eval752.zip!corpus/index.json" {
		t.Errorf("clause loc %+v", ds.Clauses[1].Loc)
	}
	if _, ok := bd.SHA256["corpus/docs/PH.pdf"]; !ok {
		t.Errorf("raw corpus file not hashed (it counts toward the version hash)")
	}
	if len(bd.Entries) != 17 {
		t.Errorf("entries %d", len(bd.Entries))
	}
}

func TestBundleMissingCompanions(t *testing.T) {
	b := zipOf(t, zent{"sections/a.jsonl", seedFile(t, "items.jsonl")})
	ds := load(t, memInput("b.eval752.zip", b))
	var got []string
	for _, f := range ds.Findings {
		got = append(got, f.Code)
	}
	if strings.Join(got, ",") != "bundle.missing-manifest,bundle.missing-meta" {
		t.Errorf("findings %v", codes(ds.Findings))
	}
	if len(ds.Items) != 2 {
		t.Errorf("items %d", len(ds.Items))
	}
}

// TestHostileBundleKeepsReading: unsafe entries are findings, the safe ones load.
func TestHostileBundleKeepsReading(t *testing.T) {
	b := zipOf(t,
		zent{"manifest.json", `{}`}, zent{"meta.json", `{"name": "x"}`},
		zent{"../../evil.jsonl", seedFile(t, "items.jsonl")},
		zent{"sections/a.jsonl", seedFile(t, "items.jsonl")},
		zent{"sections/a.jsonl", `{"id": "other", "type": "freeform", "inputs": {"text": "x"}, "answer": "y"}`},
	)
	ds := load(t, memInput("h.eval752.zip", b))
	got := map[string]int{}
	for _, f := range ds.Findings {
		got[f.Code]++
	}
	if got["zip.path-traversal"] != 1 || got["zip.duplicate-entry"] != 1 || len(ds.Findings) != 2 {
		t.Errorf("findings %v", codes(ds.Findings))
	}
	if len(ds.Items) != 2 || ds.Items[0].V.ID != "q-001" {
		t.Errorf("items %d", len(ds.Items))
	}
}

func TestCorruptBundleIsAFinding(t *testing.T) {
	b := append([]byte("PK\x03\x04"), bytes.Repeat([]byte{0}, 100)...)
	ds, err := Load(context.Background(), []Input{memInput("c.eval752.zip", b)}, Options{})
	if err != nil {
		t.Fatalf("Load error %v; a corrupt zip must be a finding", err)
	}
	if len(ds.Findings) != 1 || ds.Findings[0].Code != "zip.corrupt" {
		t.Errorf("findings %v", codes(ds.Findings))
	}
}

func TestForcedAndUnknownFormats(t *testing.T) {
	// a b-2 file forced as v2 gets v2 schema findings (the user's choice wins)
	b2 := seedFile(t, "b2.jsonl")
	in := memInput("x.jsonl", []byte(b2))
	in.Format = model.FormatV2Question
	ds := load(t, in)
	if len(ds.V2) != 1 || len(ds.B2) != 0 || ds.Inputs[0].Format != model.FormatV2Question || len(ds.Findings) == 0 {
		t.Errorf("forced: v2 %d b2 %d findings %v", len(ds.V2), len(ds.B2), codes(ds.Findings))
	}
	in = memInput("x.jsonl", []byte(b2))
	in.Format = "b2"
	ds = load(t, in)
	if len(ds.B2) != 1 || len(ds.Findings) != 1 || ds.Findings[0].Code != "format.invalid" {
		t.Errorf("bad forced: %v", codes(ds.Findings))
	}
	ds = load(t, memInput("notes.txt", []byte("hello\n")))
	if len(ds.Findings) != 1 || ds.Findings[0].Code != "format.unknown" || !strings.Contains(ds.Findings[0].Hint, "--format") {
		t.Errorf("unknown: %v", ds.Findings)
	}
	// JSON too broken to detect still has its syntax error located, at
	// the line of a one-line record and inside a pretty-printed one
	ds = load(t, memInput("one.jsonl", []byte(`{"id": "q1", "type": "freeform", "answer": "a"`+"\n")))
	if got := codes(ds.Findings); len(got) != 2 || !strings.Contains(got[1], "one.jsonl:1: error jsonl.syntax") {
		t.Errorf("broken one-line record: %v", got)
	}
	ds = load(t, memInput("pretty.jsonl", []byte("{\n  \"id\": \"q1\",\n  \"choices\": [\"a\" \"b\"]\n}\n")))
	if got := codes(ds.Findings); len(got) != 2 || !strings.Contains(got[1], "pretty.jsonl:3: error jsonl.syntax") {
		t.Errorf("broken pretty record: %v", got)
	}
	// UTF-16 (with or without its byte order mark) is named, not "unknown"
	for _, body := range []string{"\xFF\xFE{\x00\"\x00i\x00", "{\x00\"\x00i\x00d\x00"} {
		ds = load(t, memInput("wide.jsonl", []byte(body)))
		if got := codes(ds.Findings); len(got) != 1 || !strings.Contains(got[0], "jsonl.invalid-utf8: the file is UTF-16LE") {
			t.Errorf("UTF-16: %v", got)
		}
	}
	// a qrels file with too many bad lines to vote: its name decides, and
	// every bad line is its own finding (lines 2 and 3 of 4)
	ds = load(t, memInput("judged.qrels", []byte("q1 0 d1 1\nq1 0 d2 x\nq1 0 d3\nq1 0 d4 0\n")))
	if got := codes(ds.Findings); ds.Inputs[0].Format != model.FormatTRECQrels || len(got) != 2 ||
		!strings.HasPrefix(got[0], "judged.qrels:2:") || !strings.HasPrefix(got[1], "judged.qrels:3:") {
		t.Errorf("bad qrels: %s %v", ds.Inputs[0].Format, got)
	}
}

func TestBOMCRLFAndLongLine(t *testing.T) {
	items := strings.Split(strings.TrimSpace(seedFile(t, "items.jsonl")), "\n")
	long := `{"id": "long", "type": "freeform", "inputs": {"text": "` + strings.Repeat("长", 40000) + `"}, "answer": "x"}` // 120 KB of UTF-8
	body := "\xEF\xBB\xBF" + items[0] + "\r\n\r\n" + long + "\r\n" + items[1]
	ds := load(t, memInput("crlf.jsonl", []byte(body)))
	if len(ds.Findings) != 0 || len(ds.Items) != 3 {
		t.Fatalf("findings %v items %d", codes(ds.Findings), len(ds.Items))
	}
	if ds.Items[1].Line != 3 || ds.Items[2].Line != 4 || len([]rune(ds.Items[1].V.Inputs.Text)) != 40000 {
		t.Errorf("lines %d %d", ds.Items[1].Line, ds.Items[2].Line)
	}
	// the same with a 100 KB cap: the long line is one finding, reading goes on
	ds, _ = Load(context.Background(), []Input{memInput("crlf.jsonl", []byte(body))}, Options{Limits: Limits{MaxLineBytes: 100 << 10}})
	if len(ds.Findings) != 1 || ds.Findings[0].Code != "jsonl.line-too-long" || ds.Findings[0].Line != 3 || len(ds.Items) != 2 {
		t.Errorf("capped: %v items %d", codes(ds.Findings), len(ds.Items))
	}
}

// TestLongFirstLineDetected: a first record longer than the detection head
// (64 KiB, then read on until a line is whole) still decides the format, so
// the lines after it are checked, in a plain file and in a bundle.
func TestLongFirstLineDetected(t *testing.T) {
	items := strings.Split(strings.TrimSpace(seedFile(t, "items.jsonl")), "\n")
	// 1 MiB of letters that do not compress past the bundle's ratio cap
	text := make([]byte, 1<<20)
	for i, x := 0, uint32(1); i < len(text); i++ {
		x = x*1664525 + 1013904223
		text[i] = 'a' + byte(x>>24)%26
	}
	long := `{"id": "long", "type": "freeform", "inputs": {"text": "` + string(text) + `"}, "answer": "x"}`
	body := long + "\n" + items[0] + "\n"
	ds := load(t, memInput("big.jsonl", []byte(body)))
	if len(ds.Findings) != 0 || len(ds.Items) != 2 || ds.Inputs[0].Format != model.FormatItem {
		t.Fatalf("plain: format %s findings %v items %d", ds.Inputs[0].Format, codes(ds.Findings), len(ds.Items))
	}
	if ds.Items[1].Line != 2 {
		t.Errorf("second item at line %d, want 2", ds.Items[1].Line)
	}
	b := zipOf(t, zent{"manifest.json", `{}`}, zent{"meta.json", `{"name": "x"}`}, zent{"sections/a.jsonl", body})
	ds = load(t, memInput("b.eval752.zip", b))
	if len(ds.Items) != 2 {
		t.Errorf("bundle: items %d findings %v", len(ds.Items), codes(ds.Findings))
	}
}

func TestProgressAndCancel(t *testing.T) {
	b := zipOf(t, zent{"manifest.json", `{}`}, zent{"meta.json", `{"name": "x"}`}, zent{"sections/a.jsonl", seedFile(t, "items.jsonl")})
	items := []byte(seedFile(t, "items.jsonl"))
	var last Progress
	calls := 0
	_, err := Load(context.Background(), []Input{memInput("b.eval752.zip", b), memInput("i.jsonl", items)}, Options{Progress: func(p Progress) { last = p; calls++ }})
	if err != nil {
		t.Fatal(err)
	}
	if calls < 2 || last.Stage != "read" || last.Total <= 0 || last.Done < last.Total {
		t.Errorf("progress %d calls, last %+v", calls, last)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Load(ctx, []Input{memInput("i.jsonl", items)}, Options{}); err == nil {
		t.Errorf("cancelled context: no error")
	}
}

// TestNestedRoot: a bundle zipped with its folder is read from that folder,
// with names relative to it (so the version hash and asset paths agree).
func TestNestedRoot(t *testing.T) {
	b := zipOf(t,
		zent{"geo/manifest.json", `{"format_version": 1}`},
		zent{"geo/meta.json", `{"name": "geo"}`},
		zent{"geo/sections/a.jsonl", seedFile(t, "items.jsonl")},
		zent{"geo/assets/photo-001.jpg", "jpg"},
		zent{"__MACOSX/geo/._meta.json", "x"},
	)
	ds := load(t, memInput("n.eval752.zip", b))
	got := map[string]int{}
	for _, f := range ds.Findings {
		got[f.Code]++
	}
	// __MACOSX metadata is an info (bundle.os-metadata, not read); the folder is an info
	if got["bundle.nested-root"] != 1 || got["bundle.os-metadata"] != 1 || len(ds.Findings) != 2 {
		t.Errorf("findings %v", codes(ds.Findings))
	}
	bd := ds.Bundles[0]
	if len(ds.Items) != 2 || bd.Meta == nil || len(bd.Assets) != 1 || bd.Assets[0].Path != "assets/photo-001.jpg" {
		t.Errorf("items %d meta %v assets %+v", len(ds.Items), bd.Meta, bd.Assets)
	}
	if _, ok := bd.SHA256["sections/a.jsonl"]; !ok {
		t.Errorf("sha256 keys %v", bd.SHA256)
	}
	if ds.Path(ds.Items[0].Loc) != "n.eval752.zip!geo/sections/a.jsonl" {
		t.Errorf("path %s", ds.Path(ds.Items[0].Loc))
	}
}

// TestJSONArrayLines: records of a pretty-printed JSON array are located at
// the line where each element starts; schema pointers carry the index.
func TestJSONArrayLines(t *testing.T) {
	body := "[\n  {\"doc\": \"law\", \"clause\": \"第一条\", \"text\": \"t\"},\n  {\"doc\": \"law\", \"clause\": \"第二条\"}\n]\n"
	ds := load(t, memInput("corpus/index.json", []byte(body)))
	if len(ds.Clauses) != 2 || ds.Clauses[0].Line != 2 || ds.Clauses[1].Line != 3 {
		t.Fatalf("clauses %+v", ds.Clauses)
	}
	if len(ds.Findings) != 1 || ds.Findings[0].Code != "schema.required" || ds.Findings[0].Line != 3 || ds.Findings[0].Pointer != "/1/text" {
		t.Errorf("findings %v", codes(ds.Findings))
	}
}

// TestRunFolderExtraFiles: seed 003 §10's run folder also holds
// metrics.json and errors.jsonl, read as rag.metrics and rag.errors (an
// error record without its code is a schema error).
func TestRunFolderExtraFiles(t *testing.T) {
	b := zipOf(t,
		zent{"manifest.json", `{}`}, zent{"meta.json", `{"name": "x"}`},
		zent{"sections/q.jsonl", seedFile(t, "questions.jsonl")},
		zent{"runs/dense/metrics.json", `{"ndcg@10": 0.7}`},
		zent{"runs/dense/errors.jsonl", `{"qid": "q1", "root_cause": "RETRIEVAL_MISS", "severity": "high"}` + "\n"},
	)
	ds := load(t, memInput("r.eval752.zip", b))
	got := codes(ds.Findings)
	if len(got) != 1 || !strings.Contains(got[0], "errors.jsonl:1: error schema.required") || len(ds.Metrics) != 1 || len(ds.Errors) != 1 {
		t.Errorf("findings %v, metrics %d, errors %d", got, len(ds.Metrics), len(ds.Errors))
	}
	if len(ds.RAG) != 1 {
		t.Errorf("rag %d", len(ds.RAG))
	}
}

// TestCompanionAliases: seed 004 names what manifest.json and meta.json hold
// ("包格式版本和类型", "名称、描述、版本哈希"), not their keys; hand-written
// spellings load into eval752's fields without a schema finding (nulls and a
// numeric version included).
func TestCompanionAliases(t *testing.T) {
	cases := []struct {
		manifest, meta         string
		kind, version          string // want Manifest.V.Kind, FormatVersion as JSON
		name, hash, metaVerion string // want Meta.V fields
	}{
		{`{"version": 1, "type": "results"}`, `{"name": "x", "description": "y", "hash": "deadbeef"}`,
			"results", "1", "x", "deadbeef", ""},
		{`{"format_version": "1.0", "type": "dataset"}`, `{"title": "t", "description": null, "versionHash": "abc", "version": 2}`,
			"dataset", `"1.0"`, "t", "abc", "2"},
		{`{"schema_version": 1.1, "bundle_type": "eval752-dataset"}`, `{"name": "n", "version_hash": null, "sha256": "00ff"}`,
			"eval752-dataset", "1.1", "n", "00ff", ""},
		// qualified and differently cased spellings, and the hash written
		// as the version
		{`{"bundle_format_version": "1.0", "Bundle-Type": "dataset"}`, `{"dataset_name": "d", "dataset_version_hash": "sha256:ab"}`,
			"dataset", `"1.0"`, "d", "sha256:ab", ""},
		{`{"formatVersion": 1, "packageType": "Dataset"}`, `{"name": "n", "version": "sha256:cd"}`,
			"Dataset", "1", "n", "sha256:cd", ""},
		{`{"version": 1}`, `{"name": "n", "content_sha256": "ef", "version": "v3"}`,
			"", "1", "n", "ef", "v3"},
	}
	for i, c := range cases {
		b := zipOf(t,
			zent{"manifest.json", c.manifest},
			zent{"meta.json", c.meta},
			zent{"sections/s.jsonl", seedFile(t, "items.jsonl")},
			zent{"assets/photo-001.jpg", "x"},
		)
		ds := load(t, memInput("b.eval752.zip", b))
		if len(ds.Findings) != 0 {
			t.Errorf("case %d: findings %q", i, codes(ds.Findings))
		}
		bd := ds.Bundles[0]
		v, _ := json.Marshal(bd.Manifest.V.FormatVersion)
		if !bd.Manifest.Typed || bd.Manifest.V.Kind != c.kind || string(v) != c.version {
			t.Errorf("case %d: manifest %+v (version %s)", i, bd.Manifest.V, v)
		}
		if !bd.Meta.Typed || bd.Meta.V.Name != c.name || bd.Meta.V.VersionHash != c.hash || bd.Meta.V.Version != c.metaVerion {
			t.Errorf("case %d: meta %+v", i, bd.Meta.V)
		}
	}
}

// TestNormalizeKind: the manifest kinds people write map to dataset or results.
func TestNormalizeKind(t *testing.T) {
	for in, want := range map[string]string{
		"dataset": "dataset", "Dataset": "dataset", "eval752-dataset": "dataset", "benchmark": "dataset",
		"results": "results", "result": "results", "eval_results": "results", "": "", "model": "",
	} {
		if got := NormalizeKind(in); got != want {
			t.Errorf("NormalizeKind(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestNotAZipNamedZip: an empty file or a text file named .eval752.zip is one
// zip.corrupt error naming the problem, not "format unknown" or "empty file".
func TestNotAZipNamedZip(t *testing.T) {
	for _, body := range []string{"", "hello, not a zip\n"} {
		ds := load(t, memInput("b.eval752.zip", []byte(body)))
		if len(ds.Findings) != 1 || ds.Findings[0].Code != "zip.corrupt" || ds.Findings[0].Severity != 0 {
			t.Errorf("%q: findings %q", body, codes(ds.Findings))
		}
		if len(ds.Inputs) != 1 || ds.Inputs[0].SHA256 != hexSHA(body) {
			t.Errorf("%q: inputs %+v", body, ds.Inputs)
		}
	}
}

// TestPrettyPrintedRecords: seed 004's two item examples pasted as printed
// (each object over several lines) into a .jsonl file, loose or as a bundle
// section: both records load at the line where they start, with one
// jsonl.multiline warning for the file.
func TestPrettyPrintedRecords(t *testing.T) {
	pretty := seedFile(t, "items_pretty.jsonl")
	for _, in := range []Input{
		memInput("items.jsonl", []byte(pretty)),
		memInput("b.eval752.zip", zipOf(t,
			zent{"manifest.json", `{"format_version": 1, "kind": "dataset"}`},
			zent{"meta.json", `{"name": "n"}`},
			zent{"sections/section-1.jsonl", pretty},
			zent{"assets/photo-001.jpg", "x"})),
	} {
		ds := load(t, in)
		if len(ds.Findings) != 1 || ds.Findings[0].Code != "jsonl.multiline" || ds.Findings[0].Line != 1 {
			t.Errorf("%s: findings %q", in.Name, codes(ds.Findings))
		}
		if len(ds.Items) != 2 || !ds.Items[0].Typed || !ds.Items[1].Typed ||
			ds.Items[0].Line != 1 || ds.Items[1].Line != 21 || ds.Items[1].V.ID != "img-001" {
			t.Errorf("%s: items %+v", in.Name, ds.Items)
		}
	}
}

// TestOSMetadataEntries: a bundle zipped by macOS Finder (a folder, its
// .DS_Store, AppleDouble ._ files under __MACOSX/ and beside the sections)
// loads as the bundle in the folder with one bundle.os-metadata info and the
// nested-root info; the metadata files are hashed, never parsed as sections
// or listed as assets.
func TestOSMetadataEntries(t *testing.T) {
	b := zipOf(t,
		zent{"geo/manifest.json", `{"format_version": 1, "kind": "dataset"}`},
		zent{"geo/meta.json", `{"name": "geo"}`},
		zent{"geo/sections/section-1.jsonl", seedFile(t, "items.jsonl")},
		zent{"geo/sections/._section-1.jsonl", "\x00\x05\x16\x07\x00\x02\x00\x00Mac OS X"},
		zent{"geo/assets/photo-001.jpg", "x"},
		zent{"geo/assets/.DS_Store", "\x00\x00\x00\x01Bud1"},
		zent{"geo/.DS_Store", "\x00\x00\x00\x01Bud1"},
		zent{"__MACOSX/geo/._manifest.json", "\x00\x05\x16\x07"},
	)
	ds := load(t, memInput("b.eval752.zip", b))
	var got []string
	for _, f := range ds.Findings {
		got = append(got, f.Code)
	}
	if strings.Join(got, ",") != "bundle.nested-root,bundle.os-metadata" && strings.Join(got, ",") != "bundle.os-metadata,bundle.nested-root" {
		t.Errorf("findings %q", codes(ds.Findings))
	}
	bd := ds.Bundles[0]
	if len(bd.Sections) != 1 || len(bd.Assets) != 1 || len(ds.Items) != 2 {
		t.Errorf("sections %v assets %v items %d", bd.Sections, bd.Assets, len(ds.Items))
	}
	if _, ok := bd.SHA256["assets/.DS_Store"]; !ok {
		t.Errorf("metadata file not hashed: %v", bd.SHA256)
	}
}

// TestPrettyPrintedSyntaxError: in a file of pretty-printed records, a
// syntax error is one finding at its own line, and the records before and
// after it are still read (reading resumes at the next line opening "{").
func TestPrettyPrintedSyntaxError(t *testing.T) {
	body := "{\n  \"id\": \"a\",\n  \"type\": \"freeform\",\n  \"inputs\": {\"text\": \"x\"},\n  \"answer\": \"y\"\n}\n" + // lines 1–6
		"{\n  \"id\": \"b\",\n  \"type\": \"freeform\"\n  \"answer\": \"y\"\n}\n" + // lines 7–11: no comma after line 9
		"{\n  \"id\": \"c\",\n  \"type\": \"freeform\",\n  \"inputs\": {\"text\": \"x\"},\n  \"answer\": \"y\"\n}\n" // lines 12–17
	ds := load(t, memInput("items.jsonl", []byte(body)))
	if len(ds.Items) != 2 || ds.Items[0].V.ID != "a" || ds.Items[1].V.ID != "c" || ds.Items[1].Line != 12 {
		t.Fatalf("items %+v", ds.Items)
	}
	var syntax []string
	for _, f := range ds.Findings {
		if f.Code == "jsonl.syntax" {
			syntax = append(syntax, f.String())
		}
	}
	if len(syntax) != 1 || !strings.Contains(syntax[0], "items.jsonl:10:") {
		t.Errorf("syntax findings %v, want one at line 10 (the token after the missing comma); all: %v", syntax, codes(ds.Findings))
	}
}

// TestSeed003FolderZipped: seed 003 §10's project layout zipped as it is
// (data/, eval/, runs/<id>/, no manifest.json or meta.json) is read as a
// zipped folder: its files are parsed like a bundle's corpus/ and runs/,
// with one info finding instead of the bundle errors; metrics.json is read
// as the run's claimed figures (rag.metrics).
func TestSeed003FolderZipped(t *testing.T) {
	b := zipOf(t,
		zent{"data/documents.jsonl", seedFile(t, "documents.jsonl")},
		zent{"eval/questions.jsonl", seedFile(t, "questions.jsonl")},
		zent{"runs/r1/predictions.jsonl", seedFile(t, "predictions.jsonl")},
		zent{"runs/r1/metrics.json", `{"ndcg@10": 0.5}`},
	)
	ds := load(t, memInput("rag.zip", b))
	if len(ds.Documents) != 1 || len(ds.RAG) != 1 || len(ds.Preds) != 1 || ds.Preds[0].V.RunID != "r1" {
		t.Fatalf("documents %d questions %d predictions %+v", len(ds.Documents), len(ds.RAG), ds.Preds)
	}
	got := codes(ds.Findings)
	if len(got) != 1 || !strings.Contains(got[0], "info bundle.plain-zip") || len(ds.Metrics) != 1 {
		t.Errorf("findings %v, metrics files %d: want the plain-zip info and metrics.json read", got, len(ds.Metrics))
	}
	// named .eval752.zip, the same content is a bundle missing its companions
	ds = load(t, memInput("rag.eval752.zip", b))
	if got := strings.Join(codes(ds.Findings), "\n"); !strings.Contains(got, "bundle.missing-manifest") || !strings.Contains(got, "bundle.missing-meta") {
		t.Errorf(".eval752.zip without companions: %s", got)
	}
}
