package peer

import (
	"encoding/json"
	"sort"
	"strconv"
	"strings"

	"eval752/app/finding"
	"eval752/app/model"
)

// NewInspect starts the Log of an Inspect .eval archive or .json log.
func NewInspect(path string, f model.Format) *Log {
	return &Log{Path: path, Format: f, Tool: ToolInspect, Reducers: map[string]string{}}
}

// InspectHeader reads an EvalLog's header — the .eval's header.json (or
// _journal/start.json when the run never finished), or the top of a .json
// log: eval.task, eval.model, eval.config.epochs, status, the inspect_ai
// version, and results.scores[] (one entry per scorer: its reducer and its
// metrics' values, the headline numbers). loc.Path is the file (entry) the
// object came from; pointers are relative to it.
func (l *Log) InspectHeader(v map[string]any, loc Loc) {
	ev := obj(v["eval"])
	if t, ok := Str(ev["task"]); ok {
		l.Task = t
	}
	if s, ok := Str(v["status"]); ok {
		l.Status = s
	}
	if p, ok := Str(obj(ev["packages"])["inspect_ai"]); ok {
		l.Version = p
	}
	if e := iptr(obj(ev["config"])["epochs"]); e != nil {
		l.Epochs = *e
	}
	model, _ := Str(ev["model"])
	if len(l.Runs) == 0 {
		l.Runs = []*Run{{Name: model, Model: model, Idx: -1}}
	} else if model != "" {
		l.Runs[0].Name, l.Runs[0].Model = model, model
	}
	// the reducer a results entry without its own "reducer" was computed
	// with: eval.config.epochs_reducer when it names one
	defaultReducer := ""
	if rs := arr(obj(ev["config"])["epochs_reducer"]); len(rs) == 1 {
		defaultReducer, _ = Str(rs[0])
	}
	res := obj(v["results"])
	if res == nil {
		return
	}
	l.Reported = l.Reported[:0]
	scores, base := arr(res["scores"]), ptr(loc.Pointer, "results", "scores")
	if sc := obj(res["scorer"]); sc != nil && scores == nil {
		// log version 1: one scorer, its metrics beside it (Inspect's
		// EvalResults.convert_scorer_to_scorers)
		scores, base = []any{map[string]any{"name": sc["name"], "metrics": res["metrics"]}}, ""
	}
	for i, e := range scores {
		sc := obj(e)
		name, _ := Str(sc["name"])
		if name == "" {
			name, _ = Str(sc["scorer"])
		}
		if name == "" {
			continue
		}
		if !contains(l.Scorers, name) {
			l.Scorers = append(l.Scorers, name)
		}
		red, _ := Str(sc["reducer"])
		if red == "" {
			red = defaultReducer
		}
		if _, seen := l.Reducers[name]; !seen && red != "" {
			l.Reducers[name] = red // the first reducer listed is the one items are scored with
		}
		ms := obj(sc["metrics"])
		keys := make([]string, 0, len(ms))
		for k := range ms {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			m := obj(ms[k])
			val, ok := Num(m["value"])
			if !ok {
				continue
			}
			at := ptr(base, i, "metrics", k, "value")
			if base == "" {
				at = ptr(loc.Pointer, "results", "metrics", k, "value")
			}
			rep := Reported{Loc: Loc{Path: loc.Path, Pointer: at}, Run: model, Scorer: name, Metric: k, Value: val, Reducer: red}
			if n, ok := Str(m["name"]); ok && n != k {
				rep.Stat = n // a repeated metric's key has a number appended
			}
			if g, ok := Str(m["group"]); ok && g != "" {
				// one value of a metric that returns several (grouped(),
				// frequency(), ci): name is the value's label, not a statistic
				rep.Note = "one of the values of metric " + strconv.Quote(g) + "; only whole-sample statistics are recomputed"
			}
			// a metric with arguments (stderr(cluster="…"), a custom
			// accuracy) is not the plain statistic recomputed here
			for _, pk := range []string{"params", "options"} {
				if len(obj(m[pk])) > 0 {
					rep.Note = "the metric has " + pk + " (" + text(m[pk]) + "); only the plain statistic is recomputed"
				}
			}
			l.Reported = append(l.Reported, rep)
		}
	}
}

func contains(xs []string, x string) bool {
	for _, e := range xs {
		if e == x {
			return true
		}
	}
	return false
}

// InspectSample reads one EvalSample (a samples/<id>_epoch_<n>.json entry,
// or an element of a .json log's samples) and appends it to the log's run.
// It returns findings about unreadable score values.
func (l *Log) InspectSample(v map[string]any, loc Loc) finding.List {
	if len(l.Runs) == 0 {
		l.Runs = []*Run{{Idx: -1}}
	}
	var fs finding.List
	s := Sample{Loc: loc, Epoch: 1, Scores: map[string]float64{}}
	s.ID, _ = Str(v["id"])
	if s.ID == "" {
		return nil // no id: the schema reports it; the sample cannot be an item
	}
	if e := iptr(v["epoch"]); e != nil {
		s.Epoch = *e
	}
	in := text(v["input"])
	s.Digest = Digest(in)
	s.Input = Cut(in)
	switch t := v["target"].(type) {
	case []any:
		var parts []string
		for _, e := range t {
			parts = append(parts, text(e))
		}
		s.Target = Cut(strings.Join(parts, " | "))
	default:
		s.Target = Cut(text(t))
	}
	for i, c := range arr(v["choices"]) {
		if i == MaxChoices {
			break
		}
		s.Choices = append(s.Choices, cutAt(text(c), MaxChoiceText))
	}
	out := obj(v["output"])
	if c, ok := Str(out["completion"]); ok {
		s.Output = Cut(c)
	} else if ch := arr(out["choices"]); len(ch) > 0 {
		s.Output = Cut(text(obj(obj(ch[0])["message"])["content"]))
	}
	if u := obj(out["usage"]); u != nil {
		s.InTok, s.OutTok = iptr(u["input_tokens"]), iptr(u["output_tokens"])
	}
	if t, ok := Num(v["total_time"]); ok {
		ms := t * 1000
		s.LatencyMS = &ms
	}
	switch e := v["error"].(type) {
	case string:
		s.Error = e
	case map[string]any:
		s.Error, _ = Str(e["message"])
		if s.Error == "" {
			s.Error = "error"
		}
	}
	scores := obj(v["scores"])
	if sc := obj(v["score"]); sc != nil && scores == nil {
		// log version 1: one score per sample, of the results' scorer
		name := "score"
		if len(l.Scorers) > 0 {
			name = l.Scorers[0]
		}
		scores = map[string]any{name: sc}
	}
	names := make([]string, 0, len(scores))
	for k := range scores {
		names = append(names, k)
	}
	sort.Strings(names)
	explained := ""
	for _, k := range names {
		sc := obj(scores[k])
		if dv, ok := sc["value"].(map[string]any); ok {
			// a scorer with several values ({"a": 1, "b": 0}): Inspect
			// reports each key as a score of its own, named by the key
			keys := make([]string, 0, len(dv))
			for dk := range dv {
				keys = append(keys, dk)
			}
			sort.Strings(keys)
			for _, dk := range keys {
				val, ok := Value(dv[dk])
				if !ok {
					if dv[dk] != nil && !unscored(dv[dk]) {
						fs = append(fs, RuleBadScore.At(loc.Path, loc.Line, ptr(loc.Pointer, "scores", k, "value", dk), "sample %s epoch %d: value %q of scorer %q is %s, not a number or C / I / P / N", s.ID, s.Epoch, dk, k, show(dv[dk])))
					}
					continue
				}
				s.Scores[dk] = val
				if !contains(l.Scorers, dk) {
					l.Scorers = append(l.Scorers, dk)
				}
				if len(l.Scorers) > 0 && l.Scorers[0] == dk {
					explained = k
				}
			}
			continue
		}
		val, ok := Value(sc["value"])
		if !ok {
			if unscored(sc["value"]) {
				continue
			}
			fs = append(fs, RuleBadScore.At(loc.Path, loc.Line, ptr(loc.Pointer, "scores", k, "value"), "sample %s epoch %d: the value of scorer %q is %s, not a number or C / I / P / N", s.ID, s.Epoch, k, show(sc["value"])))
			continue
		}
		s.Scores[k] = val
		if !contains(l.Scorers, k) {
			l.Scorers = append(l.Scorers, k)
		}
	}
	if len(l.Scorers) > 0 {
		if explained == "" {
			explained = l.Scorers[0]
		}
		if e, ok := Str(obj(scores[explained])["explanation"]); ok {
			s.Explanation = Cut(e)
		}
	}
	if s.Epoch > l.Epochs {
		l.Epochs = s.Epoch
	}
	l.Runs[0].Samples = append(l.Runs[0].Samples, s)
	return fs
}

// unscored: the NaN Inspect writes for a sample a scorer did not score
// (Python JSON, read by jsonl.DecodeNonFinite); its metrics leave the
// sample out, and so does eval752 — it is not an unreadable score.
func unscored(v any) bool {
	n, ok := v.(json.Number)
	return ok && n == "NaN"
}

func show(v any) string {
	t := text(v)
	if len(t) > 60 {
		t = t[:60] + "…"
	}
	if _, ok := v.(string); ok {
		return "\"" + t + "\""
	}
	return t
}

// InspectLog reads a whole Inspect .json log (header and samples[]).
func InspectLog(path string, v map[string]any) (*Log, finding.List) {
	l := NewInspect(path, model.FormatInspectLog)
	l.InspectHeader(v, Loc{Path: path})
	var fs finding.List
	for i, e := range arr(v["samples"]) {
		if m := obj(e); m != nil {
			fs = append(fs, l.InspectSample(m, Loc{Path: path, Pointer: ptr("", "samples", i)})...)
		}
	}
	return l, fs
}

// Finish reports a log without samples (peer.no-samples) and sorts the
// Inspect samples of an archive (entries come in any order) by id, then
// epoch, so reductions and reports do not depend on the zip's order.
func (l *Log) Finish() finding.List {
	n := 0
	var fs finding.List
	for _, r := range l.Runs {
		fs = append(fs, r.dedupe(l.Tool)...)
		n += len(r.Samples)
		if l.Format == model.FormatInspectEval {
			sort.SliceStable(r.Samples, func(i, j int) bool {
				a, b := r.Samples[i], r.Samples[j]
				if a.ID != b.ID {
					return idLess(a.ID, b.ID)
				}
				return a.Epoch < b.Epoch
			})
		}
	}
	if n == 0 && l.Format != model.FormatLMEvalSamples && !l.Group {
		fs = append(fs, RuleNoSamples.At(l.Path, 0, "", "the %s log of task %q holds no samples: nothing to score, and its headline numbers cannot be re-checked", l.Tool, l.Task))
	}
	return fs
}

// dedupe drops a sample that repeats an earlier one of the run — the same
// id and epoch with the same scorers (lm-eval writes one line per doc and
// filter, so a doc's lines under different filters are not repeats) — and
// reports it: averaging it in would weigh that item twice.
func (r *Run) dedupe(tool string) finding.List {
	var fs finding.List
	seen := map[string]Loc{}
	out := r.Samples[:0]
	for _, s := range r.Samples {
		keys := make([]string, 0, len(s.Scores))
		for k := range s.Scores {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		k := s.ID + "\x00" + strconv.Itoa(s.Epoch) + "\x00" + strings.Join(keys, "\x00")
		if first, dup := seen[k]; dup {
			at := first.Path
			if first.Line > 0 {
				at += ":" + strconv.Itoa(first.Line)
			}
			fs = append(fs, RuleDuplicateSample.At(s.Path, s.Line, s.Pointer, "%s sample %s (epoch %d) of run %s repeats the one at %s; only the first is scored", tool, s.ID, s.Epoch, r.Name, at))
			continue
		}
		seen[k] = s.Loc
		out = append(out, s)
	}
	r.Samples = out
	return fs
}

// idLess orders numeric ids numerically, then others by bytes.
func idLess(a, b string) bool {
	na, ea := Num(jsonNumber(a))
	nb, eb := Num(jsonNumber(b))
	switch {
	case ea && eb && na != nb:
		return na < nb
	case ea != eb:
		return ea
	}
	return a < b
}
