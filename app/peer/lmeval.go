package peer

import (
	"path"
	"sort"
	"strings"

	"eval752/app/finding"
	"eval752/app/model"
)

// lmevalNotMetrics are the keys of an lm-eval sample line that are not
// per-sample metric values.
var lmevalNotMetrics = map[string]bool{
	"doc_id": true, "doc": true, "target": true, "arguments": true, "resps": true, "filtered_resps": true,
	"filter": true, "metrics": true, "doc_hash": true, "prompt_hash": true, "target_hash": true,
}

// lmevalStamp is the pairing key of an lm-eval output file: its folder and
// the timestamp after the last "_" of its name ("results_2024-12-23T14-29-31.806745.json"
// and "samples_winogrande_2024-12-23T14-29-31.806745.jsonl" share it).
func lmevalStamp(p string) string {
	p = strings.ReplaceAll(p, "\\", "/")
	if i := strings.LastIndexByte(p, '!'); i >= 0 {
		p = p[:i] + "/" + p[i+1:]
	}
	dir, base := path.Split(p)
	base = strings.TrimSuffix(strings.TrimSuffix(base, path.Ext(base)), ".json")
	if i := strings.LastIndexByte(base, '_'); i >= 0 {
		base = base[i+1:]
	}
	return dir + "\x00" + base
}

// LMEvalSamplesTask is the task a samples file's name gives:
// samples_<task>_<timestamp>.jsonl → <task>; "" when the name has no such shape.
func LMEvalSamplesTask(p string) string {
	base := path.Base(strings.ReplaceAll(p, "\\", "/"))
	if i := strings.LastIndexByte(base, '!'); i >= 0 {
		base = base[i+1:]
	}
	base = strings.TrimSuffix(base, path.Ext(base))
	if !strings.HasPrefix(base, "samples_") {
		return ""
	}
	base = strings.TrimPrefix(base, "samples_")
	if i := strings.LastIndexByte(base, '_'); i > 0 {
		return base[:i]
	}
	return base
}

// lmevalModel names the model of a results file: model_name, else
// config.model_args' pretrained= / model=, else config.model.
func lmevalModel(v map[string]any) string {
	if s, ok := Str(v["model_name"]); ok && s != "" {
		return s
	}
	cfg := obj(v["config"])
	if a, ok := Str(cfg["model_args"]); ok {
		for _, kv := range strings.Split(a, ",") {
			k, val, _ := strings.Cut(strings.TrimSpace(kv), "=")
			if k == "pretrained" || k == "model" {
				return val
			}
		}
	}
	s, _ := Str(cfg["model"])
	return s
}

// LMEvalResults reads an lm-eval results_*.json: one Log per task of its
// "results" object, each with the reported "<metric>,<filter>" values, their
// "<metric>_stderr,<filter>" and n-samples.effective.
func LMEvalResults(p string, v map[string]any) []*Log {
	res := obj(v["results"])
	tasks := make([]string, 0, len(res))
	for t := range res {
		tasks = append(tasks, t)
	}
	sort.Strings(tasks)
	mdl := lmevalModel(v)
	ver, _ := Str(v["lm_eval_version"])
	if ver == "" {
		if g, ok := Str(v["git_hash"]); ok {
			ver = "git " + g
		}
	}
	var logs []*Log
	for _, t := range tasks {
		tr := obj(res[t])
		l := &Log{Path: p, Format: model.FormatLMEvalResults, Tool: ToolLMEval, Task: t, Version: ver, Stamp: lmevalStamp(p),
			Reducers: map[string]string{}, Runs: []*Run{{Name: mdl, Model: mdl, Idx: -1}}}
		cfg := obj(obj(v["configs"])[t])
		l.Aggregations = map[string]string{}
		for _, m := range arr(cfg["metric_list"]) {
			mm := obj(m)
			name, _ := Str(mm["metric"])
			agg, _ := Str(mm["aggregation"])
			if name != "" {
				l.Aggregations[name] = agg
			}
		}
		l.Group = len(arr(obj(v["group_subtasks"])[t])) > 0
		keys := make([]string, 0, len(tr))
		for k := range tr {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			m, f, ok := strings.Cut(k, ",")
			val, num := Num(tr[k])
			if !num || k == "samples" {
				continue // "alias", a stderr written "N/A", …
			}
			if !ok {
				f = "none" // lm-eval before 0.4 wrote "acc", "acc_stderr" without a filter
			}
			sc := strings.TrimSuffix(m, "_stderr") + "," + f
			if !contains(l.Scorers, sc) {
				l.Scorers = append(l.Scorers, sc)
			}
			l.Reported = append(l.Reported, Reported{Loc: Loc{Path: p, Pointer: ptr("", "results", t, k)}, Run: mdl, Scorer: sc, Metric: m, Value: val})
		}
		l.Scorers = primaryFirst(l.Scorers)
		if n, ok := Num(obj(obj(v["n-samples"])[t])["effective"]); ok && len(l.Scorers) > 0 {
			l.Reported = append(l.Reported, Reported{Loc: Loc{Path: p, Pointer: ptr("", "n-samples", t, "effective")}, Run: mdl, Scorer: l.Scorers[0], Metric: "n-samples", Value: n, Count: true})
		}
		logs = append(logs, l)
	}
	return logs
}

// primaryFirst moves the primary scorer to the front: acc, then
// exact_match, then the first in byte order.
func primaryFirst(sc []string) []string {
	for _, pre := range []string{"acc,", "exact_match,"} {
		for i, s := range sc {
			if strings.HasPrefix(s, pre) {
				return append([]string{s}, append(append([]string(nil), sc[:i]...), sc[i+1:]...)...)
			}
		}
	}
	return sc
}

// NewLMEvalSamples starts the Log of one samples_<task>_*.jsonl file.
func NewLMEvalSamples(p string) *Log {
	t := LMEvalSamplesTask(p)
	return &Log{Path: p, Format: model.FormatLMEvalSamples, Tool: ToolLMEval, Task: t, Stamp: lmevalStamp(p),
		Reducers: map[string]string{}, Runs: []*Run{{Name: "lm-eval " + t + " " + stampTime(p), Idx: -1}}}
}

// lmevalQuestion is the text of an lm-eval doc used as the item's input and
// digest: the first of its usual question fields (question, query,
// sentence, ctx, goal, premise, text, passage, problem), else the first
// prompt argument.
func lmevalQuestion(v map[string]any) string {
	doc := obj(v["doc"])
	for _, k := range []string{"question", "query", "sentence", "ctx", "goal", "premise", "text", "passage", "problem", "input"} {
		if s, ok := Str(doc[k]); ok && s != "" {
			return s
		}
	}
	if a := arr(v["arguments"]); len(a) > 0 {
		switch x := a[0].(type) {
		case []any:
			if len(x) > 0 {
				return text(x[0])
			}
		case map[string]any:
			if s, ok := Str(x["arg_0"]); ok {
				return s
			}
		}
		return text(a[0])
	}
	return text(v["doc"])
}

// LMEvalSample reads one line of a samples file: doc_id, the doc's
// question, target, the first filtered response, and every per-sample
// metric value as "<metric>,<filter>" (filter "none" when the line names
// none).
func (l *Log) LMEvalSample(v map[string]any, loc Loc) finding.List {
	var fs finding.List
	s := Sample{Loc: loc, Epoch: 1, Scores: map[string]float64{}}
	s.ID, _ = Str(v["doc_id"])
	if s.ID == "" {
		return nil // no doc_id: the schema reports it
	}
	q := lmevalQuestion(v)
	s.Digest = Digest(q)
	s.Input = Cut(q)
	s.Target = Cut(text(v["target"]))
	if fr := arr(v["filtered_resps"]); len(fr) > 0 {
		s.Output = Cut(text(fr[0]))
	}
	filter, _ := Str(v["filter"])
	if filter == "" {
		filter = "none"
	}
	names := make([]string, 0, len(v))
	for k := range v {
		if !lmevalNotMetrics[k] {
			names = append(names, k)
		}
	}
	sort.Strings(names)
	for _, k := range names {
		val, ok := Value(v[k])
		if _, isStr := v[k].(string); isStr || !ok {
			// a list or object is the per-doc input of a corpus-level
			// metric (perplexity's [loglikelihood, weight], bleu's
			// [reference, prediction]), not a score: not a finding
			_, isList := v[k].([]any)
			_, isObj := v[k].(map[string]any)
			if listed(v["metrics"], k) && !isList && !isObj {
				fs = append(fs, RuleBadScore.At(loc.Path, loc.Line, ptr(loc.Pointer, k), "doc %s: metric %q is %s, not a number", s.ID, k, show(v[k])))
			}
			continue
		}
		sc := k + "," + filter
		s.Scores[sc] = val
		if !contains(l.Scorers, sc) {
			l.Scorers = append(l.Scorers, sc)
			l.Scorers = primaryFirst(l.Scorers)
		}
	}
	l.Runs[0].Samples = append(l.Runs[0].Samples, s)
	return fs
}

func listed(v any, k string) bool {
	for _, e := range arr(v) {
		if s, _ := Str(e); s == k {
			return true
		}
	}
	return false
}

// stampTime is the timestamp part of an lm-eval file's name.
func stampTime(p string) string {
	s := lmevalStamp(p)
	return s[strings.IndexByte(s, 0)+1:]
}

// lmevalMeanMetrics are lm-eval metrics aggregated by their mean when the
// results file does not say (configs.<task>.metric_list).
var lmevalMeanMetrics = map[string]bool{"acc": true, "acc_norm": true, "exact_match": true, "em": true, "acc_mutual_info": true}

// lmevalMean reports whether lm-eval aggregates metric m of l by its mean
// (only those are recomputed: perplexity, bleu, f1 and other corpus-level
// aggregations are not a mean of the per-doc values).
func (l *Log) lmevalMean(m string) (bool, string) {
	agg, ok := l.Aggregations[m]
	switch {
	case ok && (agg == "mean" || strings.Contains(agg, "function mean ")):
		return true, ""
	case ok && agg != "":
		return false, "lm-eval aggregates " + m + " with " + strconvQuote(agg) + ", not a mean of the per-doc values"
	case lmevalMeanMetrics[m]:
		return true, ""
	}
	return false, "the results file does not say how " + m + " is aggregated (configs.<task>.metric_list), and it is not one of acc, acc_norm, exact_match, em"
}

func strconvQuote(s string) string { return "\"" + strings.ReplaceAll(s, "\"", "\\\"") + "\"" }
