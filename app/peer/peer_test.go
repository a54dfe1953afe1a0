package peer

import (
	"encoding/json"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"

	"eval752/app/finding"
	"eval752/app/jsonl"
	"eval752/app/model"
)

// TestValue: Inspect's value_to_float — C 1, I 0, P 0.5, N 0; booleans and
// numbers as they are; a dict is not a value.
func TestValue(t *testing.T) {
	for _, c := range []struct {
		in   any
		want float64
		ok   bool
	}{
		{"C", 1, true}, {"I", 0, true}, {"P", 0.5, true}, {"N", 0, true}, {"c", 1, true},
		{true, 1, true}, {false, 0, true}, {json.Number("0.25"), 0.25, true}, {"0.75", 0.75, true},
		{map[string]any{"a": json.Number("1")}, 0, false}, {"maybe", 0, false}, {nil, 0, false},
	} {
		got, ok := Value(c.in)
		if ok != c.ok || got != c.want {
			t.Errorf("Value(%v) = %v, %v; want %v, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}

// TestReduce: epochs of one id are reduced per scorer with the log's
// reducer. Values 1, 0, 0.5 (C, I, P): mean 0.5, max 1, min 0, median 0.5,
// mode of (1, 0, 0.5, 0) = 0.
func TestReduce(t *testing.T) {
	mk := func(vals ...float64) *Run {
		r := &Run{}
		for i, v := range vals {
			r.Samples = append(r.Samples, Sample{ID: "7", Epoch: i + 1, Scores: map[string]float64{"s": v}})
		}
		return r
	}
	for _, c := range []struct {
		reducer string
		vals    []float64
		want    float64
	}{
		{"", []float64{1, 0, 0.5}, 0.5}, {"mean", []float64{1, 0, 0.5}, 0.5}, {"max", []float64{1, 0, 0.5}, 1},
		{"min", []float64{1, 0, 0.5}, 0}, {"median", []float64{1, 0, 0.5}, 0.5}, {"mode", []float64{1, 0, 0.5, 0}, 0},
	} {
		l := &Log{Scorers: []string{"s"}, Reducers: map[string]string{"s": c.reducer}}
		red := l.Reduce(mk(c.vals...))
		if len(red) != 1 || red[0].Scores["s"] != c.want || red[0].Epochs != len(c.vals) {
			t.Errorf("reducer %q on %v: %+v, want %v", c.reducer, c.vals, red, c.want)
		}
		if red[0].Passed != (c.want >= 1) {
			t.Errorf("reducer %q: passed %v", c.reducer, red[0].Passed)
		}
	}
}

// TestStderr: sd(n−1)/√n. For 1, 0, 0: mean 1/3, squared deviations 4/9,
// 1/9, 1/9 → 6/9 / 2 = 1/3, √(1/3)/√3 = 1/3.
func TestStderr(t *testing.T) {
	if got := stderr([]float64{1, 0, 0}); math.Abs(got-1.0/3) > 1e-15 {
		t.Errorf("stderr = %v, want 1/3", got)
	}
	if stderr([]float64{1}) != 0 {
		t.Error("stderr of one value is 0")
	}
}

// TestRecomputeMismatch: a reported accuracy of 0.75 over samples 1, 1, 0
// (2/3) is one peer.headline-mismatch; an unknown metric is not recomputed.
func TestRecomputeMismatch(t *testing.T) {
	l := &Log{Tool: ToolInspect, Scorers: []string{"m"}, Reducers: map[string]string{}, Runs: []*Run{{Name: "r"}}}
	for i, v := range []float64{1, 1, 0} {
		l.Runs[0].Samples = append(l.Runs[0].Samples, Sample{ID: string(rune('a' + i)), Scores: map[string]float64{"m": v}})
	}
	l.Reported = []Reported{
		{Loc: Loc{Path: "x.json", Pointer: "/results/scores/0/metrics/accuracy/value"}, Run: "r", Scorer: "m", Metric: "accuracy", Value: 0.75},
		{Run: "r", Scorer: "m", Metric: "stderr", Value: 1.0 / 3},
		{Run: "r", Scorer: "m", Metric: "f1", Value: 0.5},
	}
	fs := l.Recompute()
	var codes []string
	for _, f := range fs {
		codes = append(codes, f.Code)
	}
	if strings.Join(codes, ",") != "peer.headline-mismatch,peer.not-recomputed" {
		t.Fatalf("findings %v", fs)
	}
	if !strings.Contains(fs[0].Message, "0.75") || !strings.Contains(fs[0].Message, "0.6666666666666666") || fs[0].Pointer != "/results/scores/0/metrics/accuracy/value" {
		t.Errorf("message %q", fs[0].Message)
	}
	if l.Reported[1].Mismatch || l.Reported[1].Recomputed == nil {
		t.Errorf("stderr row %+v", l.Reported[1])
	}
}

// TestTolerance: the 17th-digit difference of Inspect's stderr agrees;
// 1e-6 does not.
func TestTolerance(t *testing.T) {
	if !near(0.33333333333333337, 0.3333333333333333) {
		t.Error("17th-digit difference is a mismatch")
	}
	if near(0.333334, 0.333333) {
		t.Error("1e-6 difference agrees")
	}
}

// TestNormalizeDigest: case, width and spacing do not change the digest;
// words do.
func TestNormalizeDigest(t *testing.T) {
	if Digest("What is  the capital\nof France?") != Digest("what is the CAPITAL of France？") {
		t.Error("same question, different spacing / case / width: different digests")
	}
	if Digest("capital of France") == Digest("capital of Spain") {
		t.Error("different questions share a digest")
	}
}

// TestCut: texts are kept to MaxText bytes at a rune boundary.
func TestCut(t *testing.T) {
	s := strings.Repeat("é", MaxText) // 2 bytes each
	c := Cut(s)
	if len(c) > MaxText+len("…") || !strings.HasSuffix(c, "…") || !strings.HasPrefix(s, strings.TrimSuffix(c, "…")) {
		t.Errorf("cut to %d bytes", len(c))
	}
	if Cut("short") != "short" {
		t.Error("short text changed")
	}
}

func decodeFile(t *testing.T, p string) map[string]any {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	v, probs := jsonl.Decode(b)
	if len(probs) > 0 {
		t.Fatal(probs)
	}
	return v.(map[string]any)
}

// TestMatch: within one tool and task, samples match by id (the .json log
// and the .eval share ids 1–3); across tools by input digest (lm-eval's
// docs 0–2 ask the same questions; doc 3 is a unit of its own, in the same
// set, its id taken so suffixed with the tool).
func TestMatch(t *testing.T) {
	ev := NewInspect("capitals.eval", model.FormatInspectEval)
	ev.InspectHeader(decodeFile(t, "testdata/inspect_eval/header.json"), Loc{Path: "capitals.eval!header.json"})
	for _, n := range []string{"1_epoch_1", "1_epoch_2", "2_epoch_1", "2_epoch_2", "3_epoch_1", "3_epoch_2"} {
		ev.InspectSample(decodeFile(t, "testdata/inspect_eval/samples/"+n+".json"), Loc{Path: "capitals.eval!samples/" + n + ".json"})
	}
	js, fs := InspectLog("wrong.json", decodeFile(t, "testdata/inspect_log/capitals_wrong_headline.json"))
	if len(fs) != 0 {
		t.Fatal(fs)
	}
	lm := NewLMEvalSamples("samples_capitals_2025-01-01T00-00-00.000001.jsonl")
	b, _ := os.ReadFile("testdata/lm_eval/samples_capitals_2025-01-01T00-00-00.000001.jsonl")
	for i, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		v, _ := jsonl.Decode([]byte(line))
		lm.LMEvalSample(v.(map[string]any), Loc{Path: "s.jsonl", Line: i + 1})
	}
	logs := Link([]*Log{ev, js, lm})
	units, outs := Match(logs)
	var ids []string
	for _, u := range units {
		ids = append(ids, u.ID+"@"+u.Set)
	}
	want := "capitals/1@peer:capitals capitals/2@peer:capitals capitals/3@peer:capitals capitals/3 (lm-eval)@peer:capitals"
	if strings.Join(ids, " ") != want {
		t.Errorf("units %v\nwant %s", ids, want)
	}
	if len(outs) != 3+3+4 {
		t.Fatalf("%d outputs", len(outs))
	}
	// lm-eval doc 2 (Italy) is on the Inspect unit of id 3; doc 3 on its own
	for _, o := range outs {
		if o.Log == lm && o.Red.First.ID == "2" && o.Unit != 2 || o.Log == lm && o.Red.First.ID == "3" && o.Unit != 3 {
			t.Errorf("lm-eval doc %s on unit %d", o.Red.First.ID, o.Unit)
		}
	}
	if got := units[0].MatchedBy; strings.Join(got, ",") != "id,digest" {
		t.Errorf("unit 1 matched by %v", got)
	}
}

// TestDuplicateSample: a sample repeated with the same id, epoch and scorers
// is reported once and scored once; another filter of the same doc is not a
// repeat.
func TestDuplicateSample(t *testing.T) {
	l := &Log{Tool: ToolLMEval, Path: "s.jsonl", Scorers: []string{"acc,none"}, Reducers: map[string]string{}, Runs: []*Run{{Name: "r"}}}
	l.Runs[0].Samples = []Sample{
		{Loc: Loc{Path: "s.jsonl", Line: 1}, ID: "0", Epoch: 1, Scores: map[string]float64{"acc,none": 1}},
		{Loc: Loc{Path: "s.jsonl", Line: 2}, ID: "0", Epoch: 1, Scores: map[string]float64{"acc,strict": 0}},
		{Loc: Loc{Path: "s.jsonl", Line: 3}, ID: "0", Epoch: 1, Scores: map[string]float64{"acc,none": 0}},
	}
	fs := l.Finish()
	if len(fs) != 1 || fs[0].Code != "peer.duplicate-sample" || fs[0].Line != 3 || !strings.Contains(fs[0].Message, "s.jsonl:1") {
		t.Fatalf("findings %+v", fs)
	}
	if len(l.Runs[0].Samples) != 2 {
		t.Errorf("%d samples kept, want 2", len(l.Runs[0].Samples))
	}
	if red := l.Reduce(l.Runs[0]); len(red) != 1 || red[0].Scores["acc,none"] != 1 {
		t.Errorf("reduced %+v", red)
	}
}

// TestLMEvalAggregations: only mean-aggregated metrics are recomputed; a
// perplexity (exp of a mean log-likelihood) or a group's numbers are
// listed as not recomputed, and a group has no samples of its own (no
// peer.no-samples warning).
func TestLMEvalAggregations(t *testing.T) {
	src := `{"results": {"lambada": {"acc,none": 0.5, "perplexity,none": 3.2}, "suite": {"acc,none": 0.5}},
	 "group_subtasks": {"suite": ["lambada"], "lambada": []},
	 "configs": {"lambada": {"metric_list": [{"metric": "acc", "aggregation": "mean"}, {"metric": "perplexity", "aggregation": "perplexity"}]}},
	 "n-samples": {"lambada": {"original": 2, "effective": 2}}, "model_name": "m"}`
	v, _ := jsonl.Decode([]byte(src))
	logs := LMEvalResults("results_2025-01-01T00-00-00.1.json", v.(map[string]any))
	if len(logs) != 2 || logs[0].Task != "lambada" || logs[1].Task != "suite" || !logs[1].Group {
		t.Fatalf("logs %+v", logs)
	}
	lam := logs[0]
	lam.Runs[0].Samples = []Sample{{ID: "0", Scores: map[string]float64{"acc,none": 1, "perplexity,none": 2}}, {ID: "1", Scores: map[string]float64{"acc,none": 0, "perplexity,none": 4}}}
	lam.Recompute()
	got := map[string]bool{}
	for _, r := range lam.Reported {
		got[r.Metric] = r.Recomputed != nil && !r.Mismatch
	}
	if !got["acc"] || got["perplexity"] || !got["n-samples"] {
		t.Errorf("recomputed %v: want acc and n-samples, not perplexity", got)
	}
	if fs := logs[1].Finish(); len(fs) != 0 {
		t.Errorf("group: %v", fs)
	}
	for _, f := range logs[1].Recompute() {
		if f.Code != "peer.not-recomputed" || !strings.Contains(f.Message, "group") {
			t.Errorf("group finding %v", f)
		}
	}
}

// TestInspectMetricParams: a metric written with arguments (a clustered
// stderr) is not the plain statistic; it is listed, not recomputed.
func TestInspectMetricParams(t *testing.T) {
	v, _ := jsonl.Decode([]byte(`{"eval": {"task": "t", "model": "m"}, "results": {"scores": [{"name": "s", "metrics": {
	  "accuracy": {"name": "accuracy", "value": 1, "params": {}},
	  "stderr": {"name": "stderr", "value": 0.1, "params": {"cluster": "group"}}}}]}}`))
	l := NewInspect("x.json", model.FormatInspectLog)
	l.InspectHeader(v.(map[string]any), Loc{Path: "x.json"})
	l.Runs[0].Samples = []Sample{{ID: "1", Scores: map[string]float64{"s": 1}}, {ID: "2", Scores: map[string]float64{"s": 1}}}
	fs := l.Recompute()
	if len(fs) != 1 || fs[0].Code != "peer.not-recomputed" || !strings.Contains(fs[0].Message, "cluster") || fs[0].Pointer != "/results/scores/0/metrics/stderr/value" {
		t.Fatalf("findings %v", fs)
	}
	if r := l.Reported[0]; r.Metric != "accuracy" || r.Recomputed == nil || *r.Recomputed != 1 {
		t.Errorf("accuracy %+v", r)
	}
}

// TestSampleBytesKept: a sample with a 1 MiB input, output and 100 choices
// keeps at most MaxText bytes of each text and 26 choices of 512 bytes
// (docs/formats.md "Large logs"); the digest is of the whole input.
func TestSampleBytesKept(t *testing.T) {
	big := strings.Repeat("x", 1<<20)
	choices := make([]any, 100)
	for i := range choices {
		choices[i] = big
	}
	l := NewInspect("a.eval", model.FormatInspectEval)
	l.InspectSample(map[string]any{"id": json.Number("1"), "input": big, "target": big, "choices": choices,
		"output": map[string]any{"completion": big}}, Loc{Path: "a.eval!samples/1_epoch_1.json"})
	s := l.Runs[0].Samples[0]
	if len(s.Input) > MaxText+3 || len(s.Target) > MaxText+3 || len(s.Output) > MaxText+3 || len(s.Choices) != MaxChoices || len(s.Choices[0]) > MaxChoiceText+3 {
		t.Errorf("kept %d / %d / %d bytes, %d choices of %d", len(s.Input), len(s.Target), len(s.Output), len(s.Choices), len(s.Choices[0]))
	}
	if s.Digest != Digest(big) {
		t.Error("digest not of the whole input")
	}
}

// TestInspectVariants: shapes of Inspect logs beyond the plain one-scorer
// log, each fixture's reported numbers worked out by hand as Inspect
// computes them (testdata/README.md) — every one recomputes to "ok", with
// no other finding:
//   - multi_value.json: a scorer whose value is {"a": …, "b": …}; Inspect
//     reports each key as a score named by the key (a = 1 1 0 → mean 2/3,
//     stderr 1/3; b = 0 1 0 → 1/3, 1/3).
//   - reducers.json: 3 epochs, one scorer reported once per reducer. Per-id
//     epochs q1 C C I, q2 C I I, q3 I I I, q4 C C C: mean → 2/3 1/3 0 1
//     (0.5, stderr √(5/27)/2); at_least_2 → 1 0 0 1 (0.5, √(1/3)/2);
//     pass_at_2 → 1, 1 − (1 − 2/3) = 2/3, 0, 1 (2/3, √(2/9)/2); mode → 1 0 0 1.
//   - mode_tie.json: mode of C I is C and of I C is I (Counter.most_common:
//     the first seen among equals) → 1 0 1 = 2/3.
//   - v1.json: log version 1 (results.scorer + results.metrics, samples
//     with one "score"): C I C → 2/3, stderr 1/3.
func TestInspectVariants(t *testing.T) {
	for _, c := range []struct {
		file string
		rows int
	}{{"multi_value.json", 4}, {"reducers.json", 7}, {"mode_tie.json", 1}, {"v1.json", 2}} {
		b, err := os.ReadFile("testdata/inspect_variants/" + c.file)
		if err != nil {
			t.Fatal(err)
		}
		v, _ := jsonl.Decode(b)
		l, fs := InspectLog(c.file, v.(map[string]any))
		fs = append(fs, l.Finish()...)
		fs = append(fs, l.Recompute()...)
		if len(fs) != 0 {
			t.Errorf("%s: findings %v", c.file, fs)
		}
		if len(l.Reported) != c.rows {
			t.Errorf("%s: %d reported numbers, want %d", c.file, len(l.Reported), c.rows)
		}
		for _, r := range l.Reported {
			if r.Recomputed == nil || r.Mismatch {
				t.Errorf("%s: %s %s (%s) reported %v, recomputed %v (%s)", c.file, r.Scorer, r.Metric, r.Reducer, r.Value, r.Recomputed, r.Note)
			}
		}
	}
}

// TestReduceK: Inspect's k reducers with threshold 1. Epochs 1 0 0 (n 3,
// c 1): at_least_1 1, at_least_2 0; pass_at_2 = 1 − (1 − 2/3) = 2/3;
// pass_k_1 = C(1,1)/C(3,1) = 1/3; pass_at_4 with 3 epochs is NaN.
func TestReduceK(t *testing.T) {
	vs := []float64{1, 0, 0}
	for _, c := range []struct {
		name string
		want float64
	}{{"at_least_1", 1}, {"at_least_2", 0}, {"pass_at_2", 2.0 / 3}, {"pass_k_1", 1.0 / 3}} {
		if got := reduce(c.name, vs); math.Abs(got-c.want) > 1e-15 {
			t.Errorf("%s = %v, want %v", c.name, got, c.want)
		}
	}
	if !math.IsNaN(reduce("pass_at_4", vs)) {
		t.Error("pass_at_4 over 3 epochs is not NaN")
	}
	if knownReducer("top_5") || !knownReducer("at_least_3") {
		t.Error("knownReducer")
	}
}

// TestLMEvalVariants: an lm-eval 0.4 output folder with a task under two
// filters and a corpus-level task (testdata/lm_eval_variants). gsm8k's
// lines per filter: strict-match 1 0 0 1 (0.5, stderr √(1/3)/2), flexible-
// extract 1 1 0 1 (0.75, stderr 0.25), 4 docs. wikitext's per-doc values
// are [loglikelihood, weight] lists: not scores and not findings; its
// perplexities are not recomputed, but its 3 docs are (n-samples). A
// results file of lm-eval before 0.4 ("acc", "acc_stderr" without a
// filter) lists its numbers under filter none.
func TestLMEvalVariants(t *testing.T) {
	dir := "testdata/lm_eval_variants/"
	const ts = "2025-01-01T00-00-00.000001"
	b, err := os.ReadFile(dir + "results_" + ts + ".json")
	if err != nil {
		t.Fatal(err)
	}
	v, _ := jsonl.Decode(b)
	logs := LMEvalResults(dir+"results_"+ts+".json", v.(map[string]any))
	var fs finding.List
	for _, task := range []string{"gsm8k", "wikitext"} {
		p := dir + "samples_" + task + "_" + ts + ".jsonl"
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		s := NewLMEvalSamples(p)
		for i, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			v, _ := jsonl.Decode([]byte(line))
			fs = append(fs, s.LMEvalSample(v.(map[string]any), Loc{Path: p, Line: i + 1})...)
		}
		logs = append(logs, s)
	}
	logs = Link(logs)
	if len(logs) != 2 {
		t.Fatalf("%d logs after linking, want 2", len(logs))
	}
	got := map[string]string{}
	for _, l := range logs {
		fs = append(fs, l.Finish()...)
		for _, f := range l.Recompute() {
			if f.Code != "peer.not-recomputed" {
				fs = append(fs, f)
			}
		}
		for _, r := range l.Reported {
			k := l.Task + " " + r.Scorer + " " + r.Metric
			switch {
			case r.Recomputed == nil:
				got[k] = "not recomputed"
			case r.Mismatch:
				got[k] = "MISMATCH"
			default:
				got[k] = fmtNum(*r.Recomputed)
			}
		}
	}
	if len(fs) != 0 {
		t.Errorf("findings %v", fs)
	}
	for k, want := range map[string]string{
		"gsm8k exact_match,strict-match exact_match": "0.5", "gsm8k exact_match,strict-match exact_match_stderr": fmtNum(math.Sqrt(1.0/3) / 2),
		"gsm8k exact_match,flexible-extract exact_match": "0.75", "gsm8k exact_match,flexible-extract exact_match_stderr": "0.25",
		"gsm8k exact_match,flexible-extract n-samples": "4", "wikitext bits_per_byte,none n-samples": "3",
		"wikitext word_perplexity,none word_perplexity": "not recomputed",
	} {
		if got[k] != want {
			t.Errorf("%s: %q, want %q", k, got[k], want)
		}
	}
	old, _ := jsonl.Decode([]byte(`{"results": {"arc_easy": {"acc": 0.25, "acc_stderr": 0.01, "acc_norm": 0.24}}, "versions": {"arc_easy": 0}}`))
	l := LMEvalResults("results.json", old.(map[string]any))[0]
	var names []string
	for _, r := range l.Reported {
		names = append(names, r.Scorer+" "+r.Metric+" "+r.Pointer)
	}
	if strings.Join(names, "; ") != "acc,none acc /results/arc_easy/acc; acc_norm,none acc_norm /results/arc_easy/acc_norm; acc,none acc_stderr /results/arc_easy/acc_stderr" {
		t.Errorf("pre-0.4 results: %v", names)
	}
}

// TestInspectMetricNames: Inspect keys a repeated metric "accuracy2" (its
// name stays "accuracy"), has var (sample variance), and writes each value
// of a metric that returns several (grouped, ci) with a group. Over 1, 1, 0:
// accuracy = accuracy2 = 2/3; var = ((1/3)² + (1/3)² + (2/3)²) / 2 = 1/3;
// the grouped value is listed, not recomputed.
func TestInspectMetricNames(t *testing.T) {
	v, _ := jsonl.Decode([]byte(`{"eval": {"task": "t", "model": "m"}, "results": {"scores": [{"name": "s", "metrics": {
	  "accuracy": {"name": "accuracy", "value": 0.6666666666666666},
	  "accuracy2": {"name": "accuracy", "value": 0.6666666666666666},
	  "var": {"name": "var", "value": 0.3333333333333333},
	  "x_a": {"name": "a", "group": "grouped", "value": 1}}}]}}`))
	l := NewInspect("x.json", model.FormatInspectLog)
	l.InspectHeader(v.(map[string]any), Loc{Path: "x.json"})
	for i, x := range []float64{1, 1, 0} {
		l.Runs[0].Samples = append(l.Runs[0].Samples, Sample{ID: strconv.Itoa(i), Scores: map[string]float64{"s": x}})
	}
	fs := l.Recompute()
	if len(fs) != 1 || fs[0].Code != "peer.not-recomputed" || fs[0].Pointer != "/results/scores/0/metrics/x_a/value" {
		t.Errorf("findings %v", fs)
	}
	for _, r := range l.Reported {
		if r.Metric != "x_a" && (r.Recomputed == nil || r.Mismatch) {
			t.Errorf("%s: reported %v, recomputed %v (%s)", r.Metric, r.Value, r.Recomputed, r.Note)
		}
	}
}

// TestLinkRunNames: one model in two logs gets the file's name appended;
// when both files have the same name (HELM's per_instance_stats.json of two
// run folders) the folder is named too, so the runs stay apart. A HELM run
// name whose only argument is the model keeps no dangling ":".
func TestLinkRunNames(t *testing.T) {
	mk := func(p string) *Log {
		return &Log{Path: p, Tool: ToolInspect, Runs: []*Run{{Name: "m", Idx: -1}}, Reported: []Reported{{Run: "m"}}}
	}
	logs := Link([]*Log{mk("a/mmlu/per_instance_stats.json"), mk("a/nqa/per_instance_stats.json"), mk("b/x.eval")})
	var got []string
	for _, l := range logs {
		got = append(got, l.Runs[0].Name+"="+l.Reported[0].Run)
	}
	if strings.Join(got, "; ") != "m (mmlu/per_instance_stats.json)=m (mmlu/per_instance_stats.json); m (nqa/per_instance_stats.json)=m (nqa/per_instance_stats.json); m (x.eval)=m (x.eval)" {
		t.Errorf("names %v", got)
	}
	if helmTask("narrative_qa:model=openai_gpt2") != "narrative_qa" || helmTask("mmlu:subject=x,model=m") != "mmlu:subject=x" {
		t.Errorf("helmTask %q %q", helmTask("narrative_qa:model=openai_gpt2"), helmTask("mmlu:subject=x,model=m"))
	}
}

// TestInspectConfigReducer: a results entry without its own "reducer" was
// computed with eval.config.epochs_reducer when that names one. Epochs
// 1 = C, I and 2 = I, I reduced by max: 1, 0 → accuracy 0.5 (the mean
// reducer would give 0.25, a false mismatch).
func TestInspectConfigReducer(t *testing.T) {
	v, _ := jsonl.Decode([]byte(`{"eval": {"task": "t", "model": "m", "config": {"epochs": 2, "epochs_reducer": ["max"]}},
	  "results": {"scores": [{"name": "s", "metrics": {"accuracy": {"name": "accuracy", "value": 0.5}}}]}}`))
	l := NewInspect("x.json", model.FormatInspectLog)
	l.InspectHeader(v.(map[string]any), Loc{Path: "x.json"})
	for i, x := range []float64{1, 0, 0, 0} {
		l.Runs[0].Samples = append(l.Runs[0].Samples, Sample{ID: strconv.Itoa(1 + i/2), Epoch: 1 + i%2, Scores: map[string]float64{"s": x}})
	}
	if fs := l.Recompute(); len(fs) != 0 {
		t.Errorf("findings %v", fs)
	}
}
