package cli

import (
	"archive/zip"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"eval752/app/engine"
	"eval752/app/report"
)

// Fixtures of ../peer/testdata (hand-written in the tools' shapes; see its README).
const (
	peerDir      = "../peer/testdata/"
	inspectEval  = peerDir + "capitals.eval"
	inspectWrong = peerDir + "inspect_log/capitals_wrong_headline.json"
	lmResults    = peerDir + "lm_eval/results_2025-01-01T00-00-00.000001.json"
	lmSamples    = peerDir + "lm_eval/samples_capitals_2025-01-01T00-00-00.000001.jsonl"
	promptfooOut = peerDir + "promptfoo/results.json"
)

// headlineRow is one row of the "reported vs recomputed" table.
type headlineRow struct {
	run, scorer, metric, reported, recomputed, check string
	n                                                int
}

func headlineRows(t *testing.T, rep report.Report) []headlineRow {
	t.Helper()
	var out []headlineRow
	for _, s := range rep.Sections {
		for _, tb := range s.Tables {
			if tb.ID != "headline-check" {
				continue
			}
			for _, r := range tb.Rows {
				n := 0
				if r[8].Value != nil {
					n = int(*r[8].Value)
				}
				out = append(out, headlineRow{run: r[3].Text, scorer: r[4].Text, metric: r[5].Text, reported: r[6].Text, recomputed: r[7].Text, check: r[9].Text, n: n})
			}
		}
	}
	return out
}

func findHeadline(t *testing.T, rows []headlineRow, run, metric string) headlineRow {
	t.Helper()
	for _, r := range rows {
		if r.run == run && r.metric == metric {
			return r
		}
	}
	t.Fatalf("no headline row %s %s in %+v", run, metric, rows)
	return headlineRow{}
}

func scoreJSON(t *testing.T, files ...string) report.Report {
	t.Helper()
	code, out, errs := runCLI(t, append([]string{"score", "--json", "--bootstrap", "200"}, files...)...)
	if code != ExitOK {
		t.Fatalf("score: exit %d, stderr %s", code, errs)
	}
	return decodeReport(t, out)
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-12 }

func wantCell(t *testing.T, rep report.Report, metric, run string, want float64) {
	t.Helper()
	c, ok := cellOf(rep, "answer-all", metric, "all", run)
	if !ok {
		c, ok = findCell(rep, metric, "all", run)
	}
	if !ok || c.Value == nil {
		t.Fatalf("no %s cell for run %s", metric, run)
	}
	if !near(*c.Value, want) {
		t.Errorf("%s of %s = %v, want %v", metric, run, *c.Value, want)
	}
}

// findCell looks for a metric cell in any table.
func findCell(r report.Report, metric, stratum, run string) (report.Cell, bool) {
	for _, s := range r.Sections {
		for _, tb := range s.Tables {
			for _, row := range tb.Rows {
				for _, c := range row {
					if c.Metric == metric && c.Stratum == stratum && c.Run == run && c.Value != nil {
						return c, true
					}
				}
			}
		}
	}
	return report.Cell{}, false
}

// TestPeerInspectEval: the .eval fixture (3 ids × 2 epochs, scorer match:
// 1 = C,C; 2 = C,I; 3 = I,P) is one run. Epochs are averaged per id as
// Inspect's mean reducer does: 1, 0.5, 0.25, so tool.score = 1.75/3 =
// 0.58333… = the reported accuracy, and stderr = sd(n−1)/√n of (1, 0.5,
// 0.25): deviations 5/12, −1/12, −4/12, squares sum 42/144, /2, √, /√3 =
// 0.2204792759… (reported 0.22047927592204922). answer.correct (full
// credit) is 1/3: only id 1 scores 1.
func TestPeerInspectEval(t *testing.T) {
	rep := scoreJSON(t, inspectEval)
	if len(rep.Inputs) != 1 || rep.Inputs[0].Format != "inspect.eval" {
		t.Fatalf("inputs = %+v", rep.Inputs)
	}
	b, _ := os.ReadFile(inspectEval)
	sum := sha256.Sum256(b)
	if rep.Inputs[0].SHA256 != hex.EncodeToString(sum[:]) {
		t.Errorf("sha256 %s, want %x", rep.Inputs[0].SHA256, sum)
	}
	rows := headlineRows(t, rep)
	acc := findHeadline(t, rows, "mockllm/model", "accuracy")
	if acc.reported != "0.5833333333333334" || acc.recomputed != "0.5833333333333334" || acc.check != "ok" || acc.n != 3 {
		t.Errorf("accuracy row %+v", acc)
	}
	se := findHeadline(t, rows, "mockllm/model", "stderr")
	if se.check != "ok" || !strings.HasPrefix(se.recomputed, "0.220479275922049") {
		t.Errorf("stderr row %+v", se)
	}
	wantCell(t, rep, "tool.score", "mockllm/model", 1.75/3)
	wantCell(t, rep, "answer.correct", "mockllm/model", 1.0/3)
	// the item browser has the three ids, with the question and the target
	if len(rep.Items) != 3 || rep.Items[0].ID != "capitals/1" || rep.Items[0].Question != "What is the capital of France?" || rep.Items[0].Reference != " Paris" {
		t.Fatalf("items = %+v", rep.Items)
	}
	if !strings.HasSuffix(rep.Items[1].Path, "capitals.eval!samples/2_epoch_1.json") {
		t.Errorf("item 2 located at %q", rep.Items[1].Path)
	}
}

// TestPeerHeadlineMismatch: the .json log's samples give 2 of 3 correct
// (2/3) but it reports accuracy 0.75: one peer.headline-mismatch error at
// the reported value's line and pointer, naming both values; its stderr
// (sd of 1,1,0 = √(1/3), /√3 = 1/3) agrees and is no finding.
func TestPeerHeadlineMismatch(t *testing.T) {
	out, _, code := runMain(t, "validate", "--json", inspectWrong)
	if code != ExitErrors {
		t.Fatalf("exit %d\n%s", code, out)
	}
	var doc engine.ValidateOutput
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range doc.Findings {
		got = append(got, f.Code)
		if f.Code != "peer.headline-mismatch" {
			continue
		}
		if f.Pointer != "/results/scores/0/metrics/accuracy/value" || f.Line == 0 ||
			!strings.Contains(f.Message, "0.75") || !strings.Contains(f.Message, "0.6666666666666666") {
			t.Errorf("finding %+v", f)
		}
	}
	if len(got) != 1 || got[0] != "peer.headline-mismatch" {
		t.Errorf("findings %v, want one peer.headline-mismatch", got)
	}
	rep := scoreJSON(t, inspectWrong)
	if r := findHeadline(t, headlineRows(t, rep), "mockllm/other", "accuracy"); r.check != "MISMATCH" || r.recomputed != "0.6666666666666666" {
		t.Errorf("accuracy row %+v", r)
	}
}

// TestPeerLMEval: results + samples of one run pair on their timestamp; acc
// 1 0 1 1 → 0.75, stderr sd(n−1)/√n = √(0.75/3)/2 = 0.25, n-samples 4.
// Alone, the results file cannot be re-checked (peer.not-recomputed, and
// peer.no-samples).
func TestPeerLMEval(t *testing.T) {
	rep := scoreJSON(t, lmResults, lmSamples)
	rows := headlineRows(t, rep)
	for _, w := range []struct{ metric, val string }{{"acc", "0.75"}, {"acc_stderr", "0.25"}, {"n-samples", "4"}} {
		r := findHeadline(t, rows, "fixture/tiny-model", w.metric)
		if r.reported != w.val || r.recomputed != w.val || r.check != "ok" {
			t.Errorf("%s row %+v", w.metric, r)
		}
	}
	wantCell(t, rep, "answer.correct", "fixture/tiny-model", 0.75)
	wantCell(t, rep, "tool.score", "fixture/tiny-model", 0.75)

	out, _, _ := runMain(t, "validate", "--json", lmResults)
	var doc engine.ValidateOutput
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	codes := map[string]int{}
	for _, f := range doc.Findings {
		codes[f.Code]++
	}
	if codes["peer.not-recomputed"] != 3 || codes["peer.no-samples"] != 1 {
		t.Errorf("results alone: findings %v", codes)
	}
}

// TestPeerPromptfoo: 2 providers × 2 tests. echo:a passes test 0 (score 1)
// and fails test 1 (score 0.5, 1 of 2 asserts); echo:b errors on test 0 and
// passes test 1. stats 2 successes / 1 failure / 1 error, per-prompt sums
// 1.5 and 1, assert counts 2/1 and 1/0 — all recomputed equal.
func TestPeerPromptfoo(t *testing.T) {
	rep := scoreJSON(t, promptfooOut)
	rows := headlineRows(t, rep)
	if len(rows) != 3+6+6 {
		t.Fatalf("%d headline rows: %+v", len(rows), rows)
	}
	for _, r := range rows {
		if r.check != "ok" {
			t.Errorf("row %+v", r)
		}
	}
	if r := findHeadline(t, rows, "(all providers)", "errors"); r.recomputed != "1" {
		t.Errorf("errors row %+v", r)
	}
	if r := findHeadline(t, rows, "echo:a", "score"); r.recomputed != "1.5" {
		t.Errorf("score row %+v", r)
	}
	wantCell(t, rep, "answer.correct", "echo:a", 0.5)
	wantCell(t, rep, "answer.correct", "echo:b", 0.5)
	wantCell(t, rep, "tool.score", "echo:a", 0.75)
	wantCell(t, rep, "tool.score", "echo:b", 0.5)
}

// TestPeerCrossToolCompare: the Inspect .eval and the lm-eval run ask the
// same three questions (France, Japan, Italy), matched by input digest;
// lm-eval's fourth doc (Canada) is unmatched and listed. Paired
// answer.correct: Inspect 1 0 0, lm-eval 1 0 1 → b = 0, c = 1, exact
// McNemar p = 1.
func TestPeerCrossToolCompare(t *testing.T) {
	code, out, errs := runCLI(t, "compare", "--json", "--bootstrap", "200", "mockllm/model", "fixture/tiny-model", inspectEval, lmResults, lmSamples)
	if code != ExitOK {
		t.Fatalf("compare: exit %d, stderr %s", code, errs)
	}
	rep := decodeReport(t, out)
	var summary report.Section
	for _, s := range rep.Sections {
		if s.ID == "summary" {
			summary = s
		}
	}
	if !strings.Contains(strings.Join(summary.Text, " "), "3 annotated units in both runs' scope") {
		t.Errorf("summary %q", summary.Text)
	}
	if !strings.Contains(strings.Join(summary.Notes, " "), "only in B (fixture/tiny-model): capitals/3 (lm-eval)") {
		t.Errorf("notes %q", summary.Notes)
	}
	found := false
	for _, tb := range summary.Tables {
		for _, row := range tb.Rows {
			if len(row) == 0 || row[0].Text != "answer.correct" {
				continue
			}
			var cells []string
			for _, c := range row {
				cells = append(cells, c.String())
			}
			line := strings.Join(cells, "|")
			found = true
			if !strings.Contains(line, "|0|1|1.0000 [exact]|") {
				t.Errorf("answer.correct row %s", line)
			}
		}
	}
	if !found {
		t.Fatal("no answer.correct verdict row")
	}
}

// TestPeerIR: ranx JSON qrels / run and a BEIR TSV of the same judgments
// give the same figures. q1: d1 (rel 1) first → RR 1; q2: d4 (unjudged)
// then d3 (rel 2) → RR 1/2; MRR = 0.75.
func TestPeerIR(t *testing.T) {
	for _, q := range []string{"qrels.json", "qrels.tsv"} {
		rep := scoreJSON(t, peerDir+"ir/"+q, peerDir+"ir/run.json")
		want := map[string]string{"qrels.json": "ranx.qrels", "qrels.tsv": "beir.qrels"}[q]
		if rep.Inputs[0].Format != "ranx.qrels" && rep.Inputs[0].Format != "beir.qrels" || string(rep.Inputs[0].Format) != want || rep.Inputs[1].Format != "ranx.run" {
			t.Fatalf("%s: inputs %+v", q, rep.Inputs)
		}
		c, ok := findCell(rep, "mrr", "all", "run")
		if !ok || !near(*c.Value, 0.75) {
			t.Errorf("%s: mrr cell %+v", q, c)
		}
	}
}

// TestPeerEvalBadEntries: a .eval whose sample entry is broken JSON, and
// one whose score value is a list (a dict is a multi-value scorer, read),
// are located findings inside the
// archive; the other samples are still read.
func TestPeerEvalBadEntries(t *testing.T) {
	dir := t.TempDir()
	header, err := os.ReadFile(peerDir + "inspect_eval/header.json")
	if err != nil {
		t.Fatal(err)
	}
	s1, _ := os.ReadFile(peerDir + "inspect_eval/samples/1_epoch_1.json")
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, e := range []struct{ name, body string }{
		{"samples/1_epoch_1.json", string(s1)},
		{"samples/2_epoch_1.json", "{\n  \"id\": 2,\n  \"epoch\": 1,\n  \"input\": \"x\"\n  \"target\": \"y\"\n}\n"},
		{"samples/3_epoch_1.json", "{\n  \"id\": 3,\n  \"epoch\": 1,\n  \"input\": \"z\",\n  \"scores\": {\"match\": {\"value\": [1, 0]}}\n}\n"},
		{"header.json", string(header)},
	} {
		w, _ := zw.Create(e.name)
		w.Write([]byte(e.body))
	}
	zw.Close()
	p := filepath.Join(dir, "bad.eval")
	os.WriteFile(p, buf.Bytes(), 0o644)
	out, _, _ := runMain(t, "validate", "--json", p)
	var doc engine.ValidateOutput
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, f := range doc.Findings {
		seen[f.Code+" "+filepath.Base(strings.ReplaceAll(f.Path, "!", "/"))+" "+itoa(f.Line)+" "+f.Pointer] = true
	}
	for _, want := range []string{
		"jsonl.syntax 2_epoch_1.json 5 ",
		"peer.score-unreadable 3_epoch_1.json 5 /scores/match/value",
	} {
		if !seen[want] {
			t.Errorf("missing finding %q in %v", want, seen)
		}
	}
	// samples 1 and 3 are read (3 without a match value): the reported
	// accuracy (0.583…, of the full log) no longer follows
	if !seen["peer.headline-mismatch header.json 49 /results/scores/0/metrics/accuracy/value"] {
		t.Errorf("no mismatch on the header: %v", seen)
	}
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// TestPeerResultsBundle: the results bundle's manifest records each peer
// log with its format and the sha256 of its bytes.
func TestPeerResultsBundle(t *testing.T) {
	files := []string{inspectEval, lmResults, lmSamples}
	out := filepath.Join(t.TempDir(), "out.zip")
	if code, _, errs := runCLI(t, append([]string{"results", "--bootstrap", "100", out}, files...)...); code != ExitOK {
		t.Fatalf("results: exit %d, stderr %s", code, errs)
	}
	zb, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	entries, _ := unzipAll(t, zb)
	var man struct {
		Inputs []struct {
			Path, Format, SHA256 string
		} `json:"inputs"`
	}
	if err := json.Unmarshal(entries["eval752-results/manifest.json"], &man); err != nil {
		t.Fatal(err)
	}
	formats := []string{"inspect.eval", "lmeval.results", "lmeval.samples"}
	if len(man.Inputs) != 3 {
		t.Fatalf("inputs %+v", man.Inputs)
	}
	for i, f := range files {
		b, _ := os.ReadFile(f)
		sum := sha256.Sum256(b)
		if man.Inputs[i].Format != formats[i] || man.Inputs[i].SHA256 != hex.EncodeToString(sum[:]) {
			t.Errorf("input %d = %+v, want %s sha256 %x", i, man.Inputs[i], formats[i], sum)
		}
	}
}

// TestPeerHELM: a HELM run folder (run_spec, scenario, scenario_state,
// per_instance_stats, stats) is one run. Instances id1–id3 are test
// (exact_match 1 0 1, f1 1 0.5 1), id4 is valid (0, 0): stats.json's
// exact_match@test 2/3, f1_score@test 2.5/3, num_instances 3 / 1 recompute
// equal; perplexity (no per-instance value) is not recomputed; the
// perturbed entry is not checked. exact_match is the primary stat:
// answer.correct 2/4 over both splits, 2/3 on split=test.
func TestPeerHELM(t *testing.T) {
	dir := peerDir + "helm/capitals_mockllm/"
	var files []string
	for _, f := range []string{"run_spec.json", "scenario.json", "scenario_state.json", "per_instance_stats.json", "stats.json"} {
		files = append(files, dir+f)
	}
	rep := scoreJSON(t, files...)
	want := []string{"helm.run_spec", "helm.scenario", "helm.scenario_state", "helm.per_instance_stats", "helm.stats"}
	for i, in := range rep.Inputs {
		if string(in.Format) != want[i] {
			t.Errorf("input %s format %s, want %s", in.Path, in.Format, want[i])
		}
	}
	rows := headlineRows(t, rep)
	checks := map[string]string{}
	for _, r := range rows {
		checks[r.scorer] = r.check
		if r.scorer == "exact_match@test" && r.recomputed != "0.6666666666666666" || r.scorer == "f1_score@test" && r.recomputed != "0.8333333333333334" {
			t.Errorf("row %+v", r)
		}
	}
	for _, sc := range []string{"num_instances@test", "num_instances@valid", "exact_match@test", "exact_match@valid", "f1_score@test", "f1_score@valid", "num_references@test", "num_references@valid"} {
		if checks[sc] != "ok" {
			t.Errorf("%s: %q", sc, checks[sc])
		}
	}
	if !strings.HasPrefix(checks["perplexity@test"], "not recomputed") || len(rows) != 9 {
		t.Errorf("%d rows: %v", len(rows), checks)
	}
	wantCell(t, rep, "answer.correct", "mockllm/model", 0.5)
	if c, ok := findCell(rep, "answer.correct", "split=test", "mockllm/model"); !ok || !near(*c.Value, 2.0/3) {
		t.Errorf("answer.correct split=test: %+v", c)
	}
	if len(rep.Items) != 4 || rep.Items[0].Question != "What is the capital of France?" || rep.Items[0].Reference != "Paris" {
		t.Errorf("items %+v", rep.Items)
	}
}

// TestPeerLMEvalOldLayout: lm-eval 0.4.0–0.4.2 wrote <output_path>/results.json
// and, per task, "<model_args, / and = as __>_<task>.jsonl" holding a
// pretty-printed JSON array. The lm_eval fixture laid out that way (its 4
// lines, acc 1 0 1 1) is linked and re-checked as the current layout is:
// acc 0.75, acc_stderr 0.25, n-samples 4, all ok.
func TestPeerLMEvalOldLayout(t *testing.T) {
	dir := t.TempDir()
	res, err := os.ReadFile(lmResults)
	if err != nil {
		t.Fatal(err)
	}
	lines, err := os.ReadFile(lmSamples)
	if err != nil {
		t.Fatal(err)
	}
	var recs []json.RawMessage
	for _, l := range strings.Split(strings.TrimSpace(string(lines)), "\n") {
		recs = append(recs, json.RawMessage(l))
	}
	arr, err := json.MarshalIndent(recs, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "results.json"), res, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "pretrained__fixture__tiny-model_capitals.jsonl"), arr, 0o644); err != nil {
		t.Fatal(err)
	}
	rows := headlineRows(t, scoreJSON(t, dir))
	for _, w := range []struct{ metric, val string }{{"acc", "0.75"}, {"acc_stderr", "0.25"}, {"n-samples", "4"}} {
		r := findHeadline(t, rows, "fixture/tiny-model", w.metric)
		if r.reported != w.val || r.recomputed != w.val || r.check != "ok" {
			t.Errorf("%s row %+v", w.metric, r)
		}
	}
	if len(rows) != 3 {
		t.Errorf("%d rows, want 3: %+v", len(rows), rows)
	}
}

// TestPeerPromptfooV2: a promptfoo output of results version 2 (rows
// without promptIdx / testIdx, in the order they finished; the prompts and
// their metrics in results.table.head.prompts). Rows are the runs of the
// head prompt of their provider and prompt text, and a test is its vars, so
// echo:a and echo:b pair on the tests hello and bye: a passes hello, fails
// bye (score 0.5, 1 of 2 asserts); b fails hello, passes bye. Per prompt:
// a score 1.5, b 1, each 1 pass / 1 fail, asserts 2 / 1; stats 2 / 2;
// namedScores.polite (rows a 1, 0.5; b 0, 1) sums 1.5 and 1 — all ok; the
// derived metric ratio (config.derivedMetrics) is listed, not recomputed.
// Paired: b = 1 (a right, b wrong), c = 1, exact McNemar p = 1.
func TestPeerPromptfooV2(t *testing.T) {
	const v2 = peerDir + "promptfoo/results_v2.json"
	rows := headlineRows(t, scoreJSON(t, v2))
	if len(rows) != 16 {
		t.Errorf("%d rows, want 16: %+v", len(rows), rows)
	}
	for _, r := range rows {
		if r.check != "ok" && (r.metric != "namedScores.ratio" || !strings.Contains(r.check, "derived")) {
			t.Errorf("row %+v", r)
		}
	}
	for _, w := range []struct{ run, metric, val string }{{"echo:a", "score", "1.5"}, {"echo:b", "score", "1"}, {"(all providers)", "failures", "2"},
		{"echo:a", "namedScores.polite", "1.5"}, {"echo:b", "namedScores.polite", "1"}} {
		if r := findHeadline(t, rows, w.run, w.metric); r.recomputed != w.val {
			t.Errorf("%s %s: %+v", w.run, w.metric, r)
		}
	}
	code, out, errs := runCLI(t, "compare", "--json", "--bootstrap", "200", "echo:a", "echo:b", v2)
	if code != ExitOK {
		t.Fatalf("compare: exit %d, stderr %s", code, errs)
	}
	found := false
	for _, s := range decodeReport(t, out).Sections {
		if s.ID != "summary" {
			continue
		}
		if !strings.Contains(strings.Join(s.Text, " "), "2 annotated units in both runs' scope") {
			t.Errorf("summary %q", s.Text)
		}
		for _, tb := range s.Tables {
			for _, row := range tb.Rows {
				if len(row) == 0 || row[0].Text != "answer.correct" {
					continue
				}
				var cells []string
				for _, c := range row {
					cells = append(cells, c.String())
				}
				found = true
				if line := strings.Join(cells, "|"); !strings.Contains(line, "|1|1|1.0000 [exact]|") {
					t.Errorf("answer.correct row %s", line)
				}
			}
		}
	}
	if !found {
		t.Error("no answer.correct verdict row")
	}
}

// TestPeerInspectNaN: Inspect writes a sample its scorer did not score as
// "value": NaN (Python JSON; Infinity / -Infinity too). The log is read —
// not one jsonl.syntax error for the whole file — and, as Inspect does, the
// NaN sample is left out of the metrics: judge 1, 0, NaN → mean 0.5, stderr
// sd(1, 0)/√2 = 0.7071…/1.4142… = 0.5, both ok, and no finding.
func TestPeerInspectNaN(t *testing.T) {
	const f = peerDir + "inspect_variants/unscored_nan.json"
	rows := headlineRows(t, scoreJSON(t, f))
	for _, w := range []struct{ metric, val string }{{"mean", "0.5"}, {"stderr", "0.5"}} {
		r := findHeadline(t, rows, "mockllm/model", w.metric)
		if r.recomputed != w.val || r.check != "ok" || r.n != 2 {
			t.Errorf("%s row %+v", w.metric, r)
		}
	}
	out, _, _ := runMain(t, "validate", "--json", f)
	var doc engine.ValidateOutput
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Findings) != 0 {
		t.Errorf("findings %+v", doc.Findings)
	}
	// an lm-eval samples line whose doc holds a NaN (a dataset column
	// json.dumps wrote as NaN) is read too: acc 1 0 1 1 → 0.75, ok
	dir := t.TempDir()
	res, _ := os.ReadFile(lmResults)
	lines, _ := os.ReadFile(lmSamples)
	nan := strings.Replace(string(lines), `"doc": {`, `"doc": {"extra": NaN, `, 1)
	if nan == string(lines) {
		t.Fatal("fixture shape changed")
	}
	os.WriteFile(filepath.Join(dir, filepath.Base(lmResults)), res, 0o644)
	os.WriteFile(filepath.Join(dir, filepath.Base(lmSamples)), []byte(nan), 0o644)
	if r := findHeadline(t, headlineRows(t, scoreJSON(t, dir)), "fixture/tiny-model", "acc"); r.recomputed != "0.75" || r.check != "ok" {
		t.Errorf("lm-eval with NaN: %+v", r)
	}
}

// TestPeerPromptfooSummaryOnly: the earliest promptfoo outputs are the
// summary itself — results[] (rows without promptIdx / testIdx), stats and
// table at the top level, the table's prompts without a provider. The rows
// of results_v2.json written that way give the runs echo:a and echo:b (no
// run for the provider-less prompt), stats 2 successes / 2 failures ok at
// /stats/…, and the same pairs (b = c = 1).
func TestPeerPromptfooSummaryOnly(t *testing.T) {
	const v1 = peerDir + "promptfoo/results_v1.json"
	rep := scoreJSON(t, v1)
	rows := headlineRows(t, rep)
	if len(rows) != 2 || rows[0].metric != "successes" || rows[0].check != "ok" || rows[1].metric != "failures" || rows[1].check != "ok" {
		t.Errorf("rows %+v", rows)
	}
	wantCell(t, rep, "answer.correct", "echo:a", 0.5)
	wantCell(t, rep, "answer.correct", "echo:b", 0.5)
	if _, ok := findCell(rep, "answer.correct", "all", "prompt 0"); ok {
		t.Error("a run for the provider-less prompt")
	}
	code, out, errs := runCLI(t, "compare", "--json", "--bootstrap", "200", "echo:a", "echo:b", v1)
	if code != ExitOK {
		t.Fatalf("compare: exit %d, stderr %s", code, errs)
	}
	found := false
	for _, s := range decodeReport(t, out).Sections {
		for _, tb := range s.Tables {
			for _, row := range tb.Rows {
				if s.ID != "summary" || len(row) == 0 || row[0].Text != "answer.correct" {
					continue
				}
				var cells []string
				for _, c := range row {
					cells = append(cells, c.String())
				}
				found = true
				if line := strings.Join(cells, "|"); !strings.Contains(line, "|1|1|1.0000 [exact]|") {
					t.Errorf("answer.correct row %s", line)
				}
			}
		}
	}
	if !found {
		t.Error("no answer.correct verdict row")
	}
}
