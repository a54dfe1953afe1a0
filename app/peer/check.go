package peer

import (
	"crypto/sha256"
	"encoding/hex"
	"math"
	"path"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"eval752/app/finding"
	"eval752/app/textnorm"
)

// Normalize is the text an input digest is taken of: width-folded,
// lower-cased, every run of white space one space, trimmed. Two tools that
// show the same question with different spacing or case still match; a
// different prompt template does not (its text differs).
func Normalize(s string) string {
	var b strings.Builder
	space := false
	for _, r := range textnorm.FoldWidthString(s) {
		if unicode.IsSpace(r) {
			space = b.Len() > 0
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}

// Digest is the hex sha256 of Normalize(s).
func Digest(s string) string {
	h := sha256.Sum256([]byte(Normalize(s)))
	return hex.EncodeToString(h[:])
}

// Reduced is one sample id of a run after its epochs are reduced.
type Reduced struct {
	First  *Sample            // the first epoch's record (text, location)
	Epochs int                // records reduced
	Scores map[string]float64 // per scorer, reduced over the epochs that have it
	Passed bool               // the tool's pass verdict (see Reduce)
	Error  string
}

// Reduce groups a run's samples by id (first-seen order) and reduces each
// scorer's values over the epochs with the log's reducer for that scorer:
// mean (Inspect's default, and the only one for tools without epochs),
// max, min, median or mode. Passed is the tool's own verdict when every
// epoch has one (promptfoo success: all epochs passed), else whether the
// primary reduced score is 1 (full credit: Inspect "C", lm-eval acc 1).
func (l *Log) Reduce(r *Run) []Reduced { return l.reduceWith(r, "", "") }

// reduceWith is Reduce with scorer sc reduced by reducer red instead of the
// log's reducer of it (when red is not "").
func (l *Log) reduceWith(r *Run, sc, red string) []Reduced {
	var out []Reduced
	at := map[string]int{}
	vals := []map[string][]float64{}
	verdicts := [][]bool{}
	for i := range r.Samples {
		s := &r.Samples[i]
		k, ok := at[s.ID]
		if !ok {
			k = len(out)
			at[s.ID] = k
			out = append(out, Reduced{First: s, Scores: map[string]float64{}})
			vals = append(vals, map[string][]float64{})
			verdicts = append(verdicts, nil)
		}
		out[k].Epochs++
		for sc, v := range s.Scores {
			vals[k][sc] = append(vals[k][sc], v)
		}
		if s.Passed != nil {
			verdicts[k] = append(verdicts[k], *s.Passed)
		}
		if s.Error != "" && out[k].Error == "" {
			out[k].Error = s.Error
		}
	}
	primary := ""
	if len(l.Scorers) > 0 {
		primary = l.Scorers[0]
	}
	for k := range out {
		for name, vs := range vals[k] {
			how := l.Reducers[name]
			if name == sc && red != "" {
				how = red
			}
			out[k].Scores[name] = reduce(how, vs)
		}
		if len(verdicts[k]) == out[k].Epochs {
			out[k].Passed = !slices.Contains(verdicts[k], false)
		} else if v, ok := out[k].Scores[primary]; ok {
			out[k].Passed = v >= 1
		}
	}
	return out
}

// reduce applies an Inspect reducer; unknown reducers fall back to the mean
// (the recomputation then says so, see recomputable).
func reduce(name string, vs []float64) float64 {
	switch name {
	case "max":
		return slices.Max(vs)
	case "min":
		return slices.Min(vs)
	case "median":
		s := slices.Clone(vs)
		slices.Sort(s)
		n := len(s)
		if n%2 == 1 {
			return s[n/2]
		}
		return (s[n/2-1] + s[n/2]) / 2
	case "mode":
		// Inspect's mode is Counter.most_common(1): among the most
		// frequent values, the one seen first (epoch order)
		n := map[float64]int{}
		best, bestN := vs[0], 0
		for _, v := range vs {
			n[v]++
			if n[v] > bestN {
				best, bestN = v, n[v]
			}
		}
		for _, v := range vs {
			if n[v] == bestN {
				return v
			}
		}
		return best
	}
	if kind, k, ok := kReducer(name); ok {
		return reduceK(kind, k, vs)
	}
	return mean(vs)
}

// kReducer splits Inspect's reducers with a k — at_least_<k>, pass_at_<k>,
// pass_k_<k> (the log writes the name with "_<k>" appended).
func kReducer(name string) (string, int, bool) {
	for _, kind := range []string{"at_least_", "pass_at_", "pass_k_"} {
		if rest, ok := strings.CutPrefix(name, kind); ok {
			k, err := strconv.Atoi(rest)
			if err == nil && k > 0 {
				return strings.TrimSuffix(kind, "_"), k, true
			}
		}
	}
	return "", 0, false
}

// reduceK applies a k reducer as Inspect does, with the default threshold
// value 1.0: at_least is 1 when at least k epochs score ≥ 1; pass_at is
// Chen et al.'s unbiased pass@k, 1 − Π_{i=n−c+1..n} (1 − k/i) (1 when
// n − c < k); pass_k is C(c, k) / C(n, k). pass_at and pass_k are NaN
// (unscored) with fewer than k epochs.
func reduceK(kind string, k int, vs []float64) float64 {
	n, c := len(vs), 0
	for _, v := range vs {
		if v >= 1 {
			c++
		}
	}
	switch kind {
	case "at_least":
		return b01(c >= k)
	case "pass_at":
		if n < k {
			return math.NaN()
		}
		if n-c < k {
			return 1
		}
		p := 1.0
		for i := n - c + 1; i <= n; i++ {
			p *= 1 - float64(k)/float64(i)
		}
		return 1 - p
	}
	if n < k {
		return math.NaN()
	}
	return binom(c, k) / binom(n, k)
}

func binom(n, k int) float64 {
	if k > n {
		return 0
	}
	r := 1.0
	for i := 1; i <= k; i++ {
		r = r * float64(n-k+i) / float64(i)
	}
	return r
}

func knownReducer(name string) bool {
	switch name {
	case "", "mean", "max", "min", "median", "mode":
		return true
	}
	_, _, ok := kReducer(name)
	return ok
}

func mean(vs []float64) float64 {
	if len(vs) == 0 {
		return math.NaN()
	}
	s := 0.0
	for _, v := range vs {
		s += v
	}
	return s / float64(len(vs))
}

// stderr is the sample standard deviation (n − 1) over √n, as Inspect's
// stderr() and lm-eval's mean_stderr compute it; 0 for one value.
func stderr(vs []float64) float64 {
	n := float64(len(vs))
	if len(vs) < 2 {
		return 0
	}
	m := mean(vs)
	ss := 0.0
	for _, v := range vs {
		ss += (v - m) * (v - m)
	}
	return math.Sqrt(ss/(n-1)) / math.Sqrt(n)
}

func std(vs []float64) float64 {
	if len(vs) < 2 {
		return 0
	}
	return stderr(vs) * math.Sqrt(float64(len(vs)))
}

// Recompute fills every Reported's Recomputed value from the log's samples
// and returns the findings: peer.headline-mismatch where it differs beyond
// Tolerance, peer.not-recomputed where it cannot be derived.
func (l *Log) Recompute() finding.List {
	var fs finding.List
	for i := range l.Reported {
		r := &l.Reported[i]
		run := l.run(r.Run)
		if r.Scorer == "stats" && len(l.Runs) > 0 {
			run = l.Runs[0] // promptfoo stats count the rows of every run
		}
		var v *float64
		switch {
		case r.Note != "":
			// set by the reader: not recomputable as written
		case l.Group:
			r.Note = "an lm-eval group: its numbers aggregate its subtasks' results"
		case run == nil || len(run.Samples) == 0:
			r.Note = "no samples in the log"
		default:
			v = l.recompute(r, run)
		}
		r.Recomputed = v
		if v == nil {
			fs = append(fs, RuleNotRecomputed.At(r.Path, r.Line, r.Pointer, "%s reports %s %s = %s for %s; not re-checked: %s", l.Tool, r.Scorer, r.Metric, fmtNum(r.Value), r.Run, r.Note))
			continue
		}
		ok := near(*v, r.Value)
		if r.Count {
			ok = *v == r.Value
		}
		if !ok {
			r.Mismatch = true
			fs = append(fs, RuleHeadlineMismatch.At(r.Path, r.Line, r.Pointer, "%s reports %s %s = %s for %s, but its %d samples give %s", l.Tool, r.Scorer, r.Metric, fmtNum(r.Value), r.Run, r.N, fmtNum(*v)))
		}
	}
	return fs
}

func fmtNum(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

func (l *Log) run(name string) *Run {
	for _, r := range l.Runs {
		if r.Name == name {
			return r
		}
	}
	if len(l.Runs) == 1 && name == "" {
		return l.Runs[0]
	}
	return nil
}

// recompute derives one reported number; nil with r.Note set when it cannot.
func (l *Log) recompute(r *Reported, run *Run) *float64 {
	switch l.Tool {
	case ToolPromptfoo:
		return l.recomputePromptfoo(r, run)
	}
	if l.Tool == ToolLMEval {
		if l.Group {
			r.Note = "an lm-eval group: its numbers aggregate its subtasks' results"
			return nil
		}
		m, _, _ := strings.Cut(r.Scorer, ",")
		if ok, why := l.lmevalMean(m); !ok && r.Metric != "n-samples" {
			r.Note = why
			return nil
		}
	}
	red := l.Reducers[r.Scorer]
	if r.Reducer != "" {
		red = r.Reducer
	}
	if !knownReducer(red) {
		r.Note = "reducer " + strconv.Quote(red) + " is not one eval752 recomputes"
		return nil
	}
	if l.Tool == ToolHELM && strings.HasPrefix(r.Scorer, "num_instances@") {
		// HELM's instance count of a split: the ids with a stat of it
		suffix := "@" + strings.TrimPrefix(r.Scorer, "num_instances@")
		n := 0
		for _, red := range l.Reduce(run) {
			for k := range red.Scores {
				if strings.HasSuffix(k, suffix) {
					n++
					break
				}
			}
		}
		r.N, r.Count = n, true
		v := float64(n)
		return &v
	}
	if r.Metric == "n-samples" {
		// lm-eval's n-samples.<task>.effective: the docs of the task,
		// whether or not they have a numeric value of the scorer
		n := len(l.Reduce(run))
		r.N, r.Count = n, true
		v := float64(n)
		return &v
	}
	var vs []float64
	for _, rd := range l.reduceWith(run, r.Scorer, red) {
		// NaN: unscored (pass_at_k with fewer than k epochs), left out as
		// Inspect leaves it out of its metrics
		if v, ok := rd.Scores[r.Scorer]; ok && !math.IsNaN(v) {
			vs = append(vs, v)
		}
	}
	r.N = len(vs)
	if len(vs) == 0 {
		r.Note = "no sample has a value of " + r.Scorer
		return nil
	}
	metric := r.Metric
	if r.Stat != "" {
		metric = r.Stat
	}
	var v float64
	switch {
	case metric == "accuracy" || metric == "mean" || l.Tool == ToolLMEval && !strings.HasSuffix(metric, "_stderr") && metric != "n-samples":
		v = mean(vs)
	case metric == "stderr" || strings.HasSuffix(metric, "_stderr"):
		v = stderr(vs)
	case metric == "std":
		v = std(vs)
	case metric == "var":
		v = std(vs) * std(vs)
	case metric == "n-samples" || metric == "samples":
		v = float64(len(vs))
	default:
		r.Note = "metric " + strconv.Quote(metric) + " is not one eval752 recomputes (accuracy, mean, stderr, std, var)"
		return nil
	}
	return &v
}

// recomputePromptfoo counts a promptfoo run's rows (stats over every run
// when r.Run is "").
func (l *Log) recomputePromptfoo(r *Reported, run *Run) *float64 {
	rows := run.Samples
	if r.Scorer == "stats" {
		rows = nil
		for _, x := range l.Runs {
			rows = append(rows, x.Samples...)
		}
	}
	r.N = len(rows)
	var v float64
	for _, s := range rows {
		failed := s.Passed == nil || !*s.Passed
		switch r.Metric {
		case "successes", "testPassCount":
			v += b01(!failed)
		case "failures", "testFailCount":
			v += b01(failed && s.Error == "")
		case "errors", "testErrorCount":
			v += b01(s.Error != "")
		case "assertPassCount":
			v += float64(s.AssertPass)
		case "assertFailCount":
			v += float64(s.AssertFail)
		case "score":
			v += s.Scores["score"]
		default:
			if k, ok := strings.CutPrefix(r.Metric, "namedScores."); ok {
				v += s.Scores[namedScore+k] // a row without it adds nothing, as in promptfoo
				continue
			}
			r.Note = "metric " + strconv.Quote(r.Metric) + " is not one eval752 recomputes"
			return nil
		}
	}
	return &v
}

func b01(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// Link finishes the logs once every input is read: the samples of an
// lm-eval samples file join the results log of the same folder, task and
// timestamp; run names are made unique across all logs (a name used by two
// logs gets " (<file>)" appended). Logs are returned in input order.
func Link(logs []*Log) []*Log {
	logs = mergeHELM(logs)
	var out []*Log
	for _, l := range logs {
		if l.Format != "lmeval.samples" {
			out = append(out, l)
		}
	}
	for _, s := range logs {
		if s.Format != "lmeval.samples" {
			continue
		}
		var into *Log
		for _, r := range out {
			if r.Format == "lmeval.results" && !r.Linked && r.Stamp == s.Stamp && r.TaskKey() == s.TaskKey() {
				into = r
				break
			}
		}
		if into == nil && s.Task == "" {
			into = oldSamplesOf(out, s)
		}
		if into == nil {
			out = append(out, s)
			continue
		}
		into.Linked = true
		if len(into.Runs) == 0 {
			into.Runs = []*Run{{Name: into.Task, Idx: -1}}
		}
		into.Runs[0].Samples = append(into.Runs[0].Samples, s.Runs[0].Samples...)
		into.Path = into.Path + " + " + s.Path
		for _, sc := range s.Scorers {
			if !slices.Contains(into.Scorers, sc) {
				into.Scorers = append(into.Scorers, sc)
			}
		}
	}
	// unique run names
	count := map[string]int{}
	for _, l := range out {
		seen := map[string]bool{}
		for _, r := range l.Runs {
			if !seen[r.Name] {
				count[r.Name]++
				seen[r.Name] = true
			}
		}
	}
	// the file names that tell the logs of one name apart: the base name,
	// or folder/base when two files of that name share a base (HELM's
	// per_instance_stats.json of two run folders)
	files := map[string]map[string]map[string]bool{} // run name → base → paths
	for _, l := range out {
		for _, r := range l.Runs {
			if count[r.Name] > 1 {
				if files[r.Name] == nil {
					files[r.Name] = map[string]map[string]bool{}
				}
				b := fileBase(l.Path)
				if files[r.Name][b] == nil {
					files[r.Name][b] = map[string]bool{}
				}
				files[r.Name][b][filePath(l.Path)] = true
			}
		}
	}
	for _, l := range out {
		for _, r := range l.Runs {
			old := r.Name
			if count[old] > 1 {
				b := fileBase(l.Path)
				if len(files[old][b]) > 1 {
					b = path.Base(path.Dir(filePath(l.Path))) + "/" + b
				}
				r.Name = old + " (" + b + ")"
				for i := range l.Reported {
					if l.Reported[i].Run == old {
						l.Reported[i].Run = r.Name
					}
				}
			}
		}
	}
	return out
}

// oldSamplesOf is the results log of an lm-eval 0.4.0–0.4.2 samples file:
// those versions wrote <output_path>/results.json and, beside it, one
// "<model_args with / and = as __>_<task>.jsonl" per task (a JSON array).
// The file pairs with the results log of its folder whose task ends its
// name after a "_" (the longest such task), which also names its task.
func oldSamplesOf(logs []*Log, s *Log) *Log {
	dir, _ := splitStamp(s.Stamp)
	base := strings.ReplaceAll(s.Path, "\\", "/")
	base = strings.TrimSuffix(path.Base(strings.ReplaceAll(base, "!", "/")), path.Ext(base))
	var into *Log
	for _, r := range logs {
		rdir, rbase := splitStamp(r.Stamp)
		if r.Format != "lmeval.results" || r.Linked || rdir != dir || rbase != "results" || !strings.HasSuffix(base, "_"+r.Task) {
			continue
		}
		if into == nil || len(r.Task) > len(into.Task) {
			into = r
		}
	}
	if into != nil {
		s.Task = into.Task
	}
	return into
}

func splitStamp(st string) (string, string) {
	dir, base, _ := strings.Cut(st, "\x00")
	return dir, base
}

// filePath is a log's first file, with / separators.
func filePath(p string) string {
	p = strings.ReplaceAll(p, "\\", "/")
	if i := strings.Index(p, " + "); i >= 0 {
		p = p[:i]
	}
	return p
}

func fileBase(p string) string {
	p = strings.ReplaceAll(p, "\\", "/")
	if i := strings.Index(p, " + "); i >= 0 {
		p = p[:i]
	}
	return path.Base(p)
}

// Unit is one item made of the matched samples of one or more logs.
type Unit struct {
	ID      string // "<task>/<sample id>" of the first log that has it
	Task    string
	Tool    string // the first log's tool
	Set     string // "peer:<task>" of its match group: logs whose items match share it
	Loc     Loc
	Input   string
	Target  string
	Choices []string
	Split   string
	// MatchedBy says how later logs' samples joined it: "id" or "digest".
	MatchedBy []string
}

// Output is one run's reduced sample on one unit.
type Output struct {
	Run  string
	Unit int
	Red  Reduced
	Log  *Log
}

// Match turns every log's reduced samples into units and outputs. A sample
// joins an existing unit when (1) a log of the same tool and task key
// already has its sample id, else (2) a unit of another log has the same
// input digest and no sample of this log yet; otherwise it is a new unit.
// Ids are trusted only within a tool and task (Inspect's arc_easy id 1 is
// not lm-eval's doc_id 1); across tools only the input text can say that
// two samples are the same item.
func Match(logs []*Log) ([]Unit, []Output) {
	var units []Unit
	var outs []Output
	byID := map[string]int{}
	byDigest := map[string][]int{}
	logOf := map[int][]*Log{} // unit → logs that have a sample on it
	parent := []int{}         // union-find over logs by shared units
	find := func(i int) int {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	owner := []int{} // unit → index of its creating log
	for li, l := range logs {
		parent = append(parent, li)
		for _, r := range l.Runs {
			for _, red := range l.Reduce(r) {
				s := red.First
				idKey := l.Tool + "\x00" + l.TaskKey() + "\x00" + s.ID
				ui, ok := byID[idKey]
				how := "id"
				if !ok && s.Digest != "" {
					for _, c := range byDigest[s.Digest] {
						if !slices.Contains(logOf[c], l) {
							ui, ok, how = c, true, "digest"
							break
						}
					}
				}
				if !ok {
					ui = len(units)
					units = append(units, Unit{ID: l.Task + "/" + s.ID, Task: l.Task, Tool: l.Tool, Loc: s.Loc, Input: s.Input, Target: s.Target, Choices: s.Choices, Split: s.Split})
					owner = append(owner, li)
					byDigest[s.Digest] = append(byDigest[s.Digest], ui)
				} else if !slices.Contains(logOf[ui], l) {
					if !slices.Contains(units[ui].MatchedBy, how) {
						units[ui].MatchedBy = append(units[ui].MatchedBy, how)
					}
					a, b := find(owner[ui]), find(li)
					if a != b {
						parent[max(a, b)] = min(a, b)
					}
				}
				byID[idKey] = ui
				if !slices.Contains(logOf[ui], l) {
					logOf[ui] = append(logOf[ui], l)
				}
				outs = append(outs, Output{Run: r.Name, Unit: ui, Red: red, Log: l})
			}
		}
	}
	for i := range units {
		units[i].Set = "peer:" + logs[find(owner[i])].Task
	}
	// unit ids must be unique: a later unit whose "<task>/<id>" is taken
	// (two tools' logs of one task, ids unrelated) gets its tool appended
	taken := map[string]bool{}
	for i := range units {
		id := units[i].ID
		if taken[id] {
			id += " (" + units[i].Tool + ")"
			for k := 2; taken[id]; k++ {
				id = units[i].ID + " (" + units[i].Tool + " " + strconv.Itoa(k) + ")"
			}
		}
		units[i].ID = id
		taken[id] = true
	}
	return units, outs
}
