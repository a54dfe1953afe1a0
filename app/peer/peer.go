// Package peer reads the logs other evaluation tools write — Inspect AI
// (.eval zip and .json log), lm-evaluation-harness (results_*.json and
// samples_<task>_*.jsonl) and promptfoo (eval -o results.json) — into one
// shape: a Log of runs, each run a list of samples with the tool's own
// per-sample scores, plus the headline numbers the log reports.
//
// Two things are done with them. Recompute re-derives every headline number
// from the log's own samples and reports a peer.headline-mismatch finding
// when they differ beyond Tolerance. Match turns the samples of all logs into
// items and runs for the scorer, pairing the samples of different logs that
// are the same item (docs/formats.md "Logs of other tools").
//
// The package reads generic JSON values (as decoded by package jsonl) and
// never a whole .eval archive: the loader hands it one sample at a time, and
// a Sample keeps at most MaxText bytes of each text.
package peer

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"

	"eval752/app/finding"
	"eval752/app/model"
)

// Tools.
const (
	ToolInspect   = "inspect_ai"
	ToolLMEval    = "lm-eval"
	ToolPromptfoo = "promptfoo"
)

// MaxText is how many bytes of a sample's input, target, output and
// explanation are kept (cut at a rune boundary, "…" appended): enough for
// the item browser and the input digest's normalised text is computed
// before the cut, so matching is not affected.
const MaxText = 2048

// Rules of this package.
var (
	RuleHeadlineMismatch = finding.Register(finding.Rule{
		Code: "peer.headline-mismatch", Severity: finding.Error, Family: "peer",
		Description: "a headline number a tool's log reports (Inspect accuracy / stderr, lm-eval acc,none and its stderr, promptfoo pass / fail / error counts and score) does not follow from the log's own samples",
		Source:      "issue 14 (a log's reported score must follow from its samples); seed 000 §4 (denominators are the annotated items)",
		Hint:        "the log was edited, truncated or merged after it was written, or the tool aggregated differently (another reducer, a filter): re-run the tool or compare against the samples",
	})
	RuleNotRecomputed = finding.Register(finding.Rule{
		Code: "peer.not-recomputed", Severity: finding.Info, Family: "peer",
		Description: "a headline number of a tool's log could not be re-checked (a metric eval752 does not recompute, or the samples are not in the log)",
		Source:      "issue 14",
		Hint:        "give the samples too (lm-eval: the samples_<task>_*.jsonl written with --log_samples beside the results_*.json)",
	})
	RuleBadScore = finding.Register(finding.Rule{
		Code: "peer.score-unreadable", Severity: finding.Warning, Family: "peer",
		Description: "a sample's score value is not a number, a boolean or one of Inspect's letters C / I / P / N; the sample is left out of that scorer's figures",
		Source:      "Inspect AI value_to_float (C=1, P=0.5, I=0, N=0)",
		Hint:        "a scorer returning a list of values (or a dict whose values are not scalars) is not read; score it with a scalar value, or a dict of scalars",
	})
	RuleDuplicateSample = finding.Register(finding.Rule{
		Code: "peer.duplicate-sample", Severity: finding.Warning, Family: "peer",
		Description: "a tool's log holds the same sample (id and epoch; for lm-eval, doc_id and filter) twice; only the first is scored",
		Source:      "issue 14 (items matched by sample id); seed 000 §4 (each annotated item counts once)",
		Hint:        "the log was merged or appended to twice; keep one record per sample and epoch",
	})
	RuleNoSamples = finding.Register(finding.Rule{
		Code: "peer.no-samples", Severity: finding.Warning, Family: "peer",
		Description: "a tool's log holds no per-sample records, so nothing can be scored or re-checked",
		Source:      "issue 14",
		Hint:        "lm-eval: run with --log_samples and give the samples file; Inspect: give the .eval with its samples/ entries",
	})
)

// Loc is where a value of a log is: the file (or "archive!entry"), the line
// when known (0: resolved later from the pointer) and the JSON pointer.
type Loc struct {
	Path    string `json:"path"`
	Line    int    `json:"line,omitempty"`
	Pointer string `json:"pointer,omitempty"`
}

// Sample is one scored record of a log: an Inspect sample of one epoch, an
// lm-eval doc, a promptfoo row.
type Sample struct {
	Loc
	ID      string   // sample id within the task (Inspect id, lm-eval doc_id, promptfoo testIdx)
	Epoch   int      // Inspect epoch (1 when the tool has none)
	Split   string   // the item's split when the tool has one (HELM instance.split)
	Input   string   // the question as the tool shows it (cut at MaxText)
	Target  string   // the reference (cut at MaxText)
	Choices []string // multiple-choice options, when the tool lists them
	Output  string   // the model's output (cut at MaxText)
	// Digest is the hex sha256 of the normalised full input (see Normalize):
	// how samples of different tools are matched.
	Digest string
	// Scores is the tool's own per-sample value per scorer (Inspect scorer,
	// lm-eval "<metric>,<filter>", promptfoo "score").
	Scores map[string]float64
	// Passed is the tool's own pass verdict when it has one (promptfoo
	// success); nil: derived from the primary score (= 1).
	Passed      *bool
	Error       string // the tool's error for this sample
	Explanation string // the primary scorer's explanation / promptfoo reason
	// Asserts counts promptfoo componentResults that passed / failed.
	AssertPass, AssertFail int
	LatencyMS, CostUSD     *float64
	InTok, OutTok          *int
}

// Run is what one model / provider produced in one log.
type Run struct {
	Name    string // unique among the runs of every log (see Link)
	Model   string // the model / provider as the log names it
	Samples []Sample
	// Idx is the promptfoo prompts[] index of this run (-1 otherwise).
	Idx int
}

// Reported is one headline number of a log and the value recomputed from
// its samples (nil when not recomputed; Note says why).
type Reported struct {
	Loc
	Run        string   `json:"run"`
	Scorer     string   `json:"scorer"` // Inspect scorer, lm-eval "<metric>,<filter>", promptfoo "stats" / prompt
	Metric     string   `json:"metric"` // accuracy, stderr, acc, acc_stderr, successes, score, …
	Value      float64  `json:"reported"`
	Recomputed *float64 `json:"recomputed,omitempty"`
	N          int      `json:"n"` // samples (ids after epoch reduction) it was recomputed over
	Note       string   `json:"note,omitempty"`
	Mismatch   bool     `json:"mismatch,omitempty"`
	// Count: the number is a count (compared exactly).
	Count bool `json:"count,omitempty"`
	// Reducer is the Inspect epoch reducer this number was computed with
	// (results.scores[i].reducer; a log can list one scorer once per
	// reducer); "" = the log's reducer of the scorer.
	Reducer string `json:"reducer,omitempty"`
	// Stat is the statistic when the log names it apart from the key
	// (Inspect's metrics["stderr2"].name = "stderr", a repeated metric).
	Stat string `json:"-"`
}

// Log is one log of one tool for one task.
type Log struct {
	Path    string       // the input's name
	Format  model.Format // inspect.eval, inspect.log, lmeval.results, lmeval.samples, promptfoo.output
	Tool    string
	Task    string // as the tool names it
	Version string // the tool's version, when the log says
	Status  string // Inspect status ("success", "cancelled", …)
	Reducer string // Inspect's reducer of the primary scorer ("mean" by default)
	Epochs  int
	// Scorers in the order the log lists them; Scorers[0] is the primary one.
	Scorers  []string
	Runs     []*Run
	Reported []Reported
	// Stamp pairs an lm-eval samples file with its results file: the
	// folder and the timestamp suffix of the file names.
	Stamp string
	// Linked: an lm-eval results log whose samples were merged into it.
	Linked bool
	// Reducers is the Inspect reducer per scorer ("" = mean).
	Reducers map[string]string
	// Aggregations is lm-eval's aggregation per metric name, from
	// configs.<task>.metric_list ("mean", "perplexity", …).
	Aggregations map[string]string
	helm         *helmPart // a HELM file's part, until Link merges its folder
	// Group: an lm-eval group (its group_subtasks list is not empty): its
	// numbers aggregate its subtasks' results and have no samples of their own.
	Group bool
}

// TaskKey is the task name used to match sample ids across logs: the last
// '/'-separated part, lower-cased ("inspect_evals/arc_easy" → "arc_easy").
func (l *Log) TaskKey() string {
	t := strings.ToLower(strings.TrimSpace(l.Task))
	if i := strings.LastIndexByte(t, '/'); i >= 0 {
		t = t[i+1:]
	}
	return t
}

// Tolerance is how far a recomputed figure may be from the reported one
// before it is a mismatch: |a − b| ≤ 1e-9 · max(1, |a|, |b|). The tools sum
// in float64 in their own order (Inspect's stderr differs from a two-pass
// recomputation in the 17th significant digit); 1e-9 is far above that
// rounding and far below any real difference of a mean over fewer than a
// billion samples. Counts are compared exactly.
const Tolerance = 1e-9

func near(a, b float64) bool {
	return math.Abs(a-b) <= Tolerance*math.Max(1, math.Max(math.Abs(a), math.Abs(b)))
}

// Num reads a generic JSON number (json.Number, float64, int) as float64.
func Num(v any) (float64, bool) {
	switch x := v.(type) {
	case json.Number:
		f, err := strconv.ParseFloat(string(x), 64)
		return f, err == nil && !math.IsInf(f, 0) && !math.IsNaN(f)
	case float64:
		return x, !math.IsInf(x, 0) && !math.IsNaN(x)
	case int:
		return float64(x), true
	}
	return 0, false
}

// Str reads a generic JSON string, or a number as written.
func Str(v any) (string, bool) {
	switch x := v.(type) {
	case string:
		return x, true
	case json.Number:
		return string(x), true
	}
	return "", false
}

// Value converts a tool's per-sample score value to a number as Inspect's
// value_to_float does: "C" (correct) 1, "I" (incorrect) 0, "P" (partial)
// 0.5, "N" (no answer) 0, booleans 1 / 0, numbers as they are, numeric
// strings parsed ("yes"/"true" 1, "no"/"false" 0).
func Value(v any) (float64, bool) {
	if f, ok := Num(v); ok {
		return f, true
	}
	switch x := v.(type) {
	case bool:
		if x {
			return 1, true
		}
		return 0, true
	case string:
		switch strings.ToUpper(strings.TrimSpace(x)) {
		case "C", "YES", "TRUE":
			return 1, true
		case "I", "N", "NO", "FALSE":
			return 0, true
		case "P":
			return 0.5, true
		}
		f, err := strconv.ParseFloat(strings.TrimSpace(x), 64)
		return f, err == nil && !math.IsInf(f, 0) && !math.IsNaN(f)
	}
	return 0, false
}

// MaxChoices and MaxChoiceText bound what is kept of a sample's options:
// the first 26, each cut at 512 bytes.
const (
	MaxChoices    = 26
	MaxChoiceText = 512
)

// Cut keeps at most MaxText bytes of s, at a rune boundary.
func Cut(s string) string { return cutAt(s, MaxText) }

func cutAt(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := n
	for i > 0 && !utf8Start(s[i]) {
		i--
	}
	return s[:i] + "…"
}

func utf8Start(b byte) bool { return b&0xC0 != 0x80 }

// text renders a generic value for people: a string as is, a list of chat
// messages as their contents joined, anything else as compact JSON.
func text(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case []any:
		var parts []string
		for _, e := range x {
			if m, ok := e.(map[string]any); ok {
				if c, ok := m["content"]; ok {
					parts = append(parts, text(c))
					continue
				}
				if t, ok := m["text"].(string); ok {
					parts = append(parts, t)
					continue
				}
			}
			parts = append(parts, text(e))
		}
		return strings.Join(parts, "\n")
	case map[string]any:
		if t, ok := x["text"].(string); ok {
			return t
		}
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

func ptr(base string, parts ...any) string {
	var b strings.Builder
	b.WriteString(base)
	for _, p := range parts {
		b.WriteByte('/')
		switch x := p.(type) {
		case string:
			b.WriteString(strings.ReplaceAll(strings.ReplaceAll(x, "~", "~0"), "/", "~1"))
		default:
			fmt.Fprint(&b, x)
		}
	}
	return b.String()
}

func obj(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
}

func arr(v any) []any {
	a, _ := v.([]any)
	return a
}

func fptr(v any) *float64 {
	if f, ok := Num(v); ok {
		return &f
	}
	return nil
}

func iptr(v any) *int {
	if f, ok := Num(v); ok && f == math.Trunc(f) && math.Abs(f) < 1<<53 {
		n := int(f)
		return &n
	}
	return nil
}

func jsonNumber(s string) any { return json.Number(s) }
