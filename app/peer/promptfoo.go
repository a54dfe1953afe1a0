package peer

import (
	"encoding/json"
	"sort"
	"strconv"
	"strings"

	"eval752/app/model"
)

// Promptfoo reads a promptfoo output JSON (promptfoo eval -o results.json,
// results.version 2 or 3): one run per results.prompts[] entry (a prompt ×
// provider; rows point at it with promptIdx), one sample per row (id =
// testIdx), and the reported stats and per-prompt metrics.
func Promptfoo(p string, v map[string]any) *Log {
	res, base := obj(v["results"]), "/results"
	if res == nil && arr(v["results"]) != nil {
		// the oldest outputs are the summary itself: results[], stats and
		// table at the top level (no evalId, no wrapping object)
		res, base = v, ""
	}
	l := &Log{Path: p, Format: model.FormatPromptfoo, Tool: ToolPromptfoo, Scorers: []string{"score"}, Reducers: map[string]string{}}
	if d, ok := Str(obj(v["config"])["description"]); ok && d != "" {
		l.Task = d
	} else if id, ok := Str(v["evalId"]); ok && id != "" {
		l.Task = id
	} else {
		l.Task = "promptfoo"
	}
	if ver, ok := Str(obj(v["metadata"])["promptfooVersion"]); ok {
		l.Version = ver
	}
	prompts, at := arr(res["prompts"]), ptr(base, "prompts")
	if prompts == nil {
		// results version 2: the prompts (with their metrics) are the
		// head of the results table
		if hp := arr(obj(obj(res["table"])["head"])["prompts"]); hp != nil {
			prompts, at = hp, ptr(base, "table", "head", "prompts")
		}
	}
	provider := func(i int) string {
		pr := obj(prompts[i])
		if s, ok := Str(pr["provider"]); ok {
			return s
		}
		if s, ok := Str(obj(pr["provider"])["id"]); ok {
			return s
		}
		return "prompt " + strconv.Itoa(i)
	}
	count := map[string]int{}
	for i := range prompts {
		count[provider(i)]++
	}
	for i := range prompts {
		name := provider(i)
		if count[name] > 1 {
			name += " #" + strconv.Itoa(i)
		}
		l.Runs = append(l.Runs, &Run{Name: name, Model: provider(i), Idx: i})
	}
	rows := arr(res["results"])
	for j, e := range rows {
		row := obj(e)
		if row == nil {
			continue
		}
		pi := iptr(row["promptIdx"])
		if pi == nil {
			pi = promptOf(prompts, row, provider)
		}
		var run *Run
		for _, r := range l.Runs {
			if pi != nil && r.Idx == *pi {
				run = r
			}
		}
		if run == nil {
			// a row whose prompt is not listed: its own run, by provider
			name := "provider"
			if s, ok := Str(obj(row["provider"])["id"]); ok {
				name = s
			} else if s, ok := Str(row["provider"]); ok {
				name = s
			}
			for _, r := range l.Runs {
				if r.Name == name {
					run = r
				}
			}
			if run == nil {
				run = &Run{Name: name, Model: name, Idx: -1}
				l.Runs = append(l.Runs, run)
			}
		}
		run.Samples = append(run.Samples, promptfooRow(p, ptr(base, "results", j), j, row))
	}
	l.Reported = nil
	st := obj(res["stats"])
	for _, k := range []string{"successes", "failures", "errors"} {
		if n, ok := Num(st[k]); ok {
			l.Reported = append(l.Reported, Reported{Loc: Loc{Path: p, Pointer: ptr(base, "stats", k)}, Run: "(all providers)", Scorer: "stats", Metric: k, Value: n, Count: true})
		}
	}
	derived := map[string]bool{} // config.derivedMetrics: computed from the sums, not summed
	for _, d := range arr(obj(v["config"])["derivedMetrics"]) {
		if n, ok := Str(obj(d)["name"]); ok {
			derived[n] = true
		}
	}
	for i := range prompts {
		ms := obj(obj(prompts[i])["metrics"])
		for _, k := range []string{"score", "testPassCount", "testFailCount", "testErrorCount", "assertPassCount", "assertFailCount"} {
			if n, ok := Num(ms[k]); ok {
				l.Reported = append(l.Reported, Reported{Loc: Loc{Path: p, Pointer: ptr(at, i, "metrics", k)}, Run: l.Runs[i].Name, Scorer: "prompt " + strconv.Itoa(i), Metric: k, Value: n, Count: k != "score"})
			}
		}
		named := obj(ms["namedScores"])
		keys := make([]string, 0, len(named))
		for k := range named {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			n, ok := Num(named[k])
			if !ok {
				continue
			}
			rep := Reported{Loc: Loc{Path: p, Pointer: ptr(at, i, "metrics", "namedScores", k)}, Run: l.Runs[i].Name, Scorer: "prompt " + strconv.Itoa(i), Metric: "namedScores." + k, Value: n}
			if derived[k] {
				rep.Note = "a derived metric (config.derivedMetrics), computed from the other named scores"
			}
			l.Reported = append(l.Reported, rep)
		}
	}
	// a prompt that names no provider (the oldest outputs list the prompt
	// texts only) and that no row joined is not a run
	runs := l.Runs[:0]
	for _, r := range l.Runs {
		if len(r.Samples) > 0 || r.Idx < 0 || r.Idx >= len(prompts) || obj(prompts[r.Idx])["provider"] != nil {
			runs = append(runs, r)
		}
	}
	l.Runs = runs
	return l
}

// namedScore prefixes a row's namedScores in Sample.Scores.
const namedScore = "named:"

// promptOf is the prompts[] index of a row written without promptIdx
// (results version 2): the first prompt of the row's provider whose raw
// text or label is the row's prompt's.
func promptOf(prompts []any, row map[string]any, provider func(int) string) *int {
	pid, ok := Str(obj(row["provider"])["id"])
	if !ok {
		pid, _ = Str(row["provider"])
	}
	rp := obj(row["prompt"])
	raw, _ := Str(rp["raw"])
	label, _ := Str(rp["label"])
	for i := range prompts {
		pr := obj(prompts[i])
		r, _ := Str(pr["raw"])
		lb, _ := Str(pr["label"])
		if provider(i) == pid && (raw != "" && r == raw || label != "" && lb == label) {
			return &i
		}
	}
	return nil
}

// promptfooRow reads one row of results.results.
func promptfooRow(p, at string, j int, row map[string]any) Sample {
	s := Sample{Loc: Loc{Path: p, Pointer: at}, Epoch: 1, Scores: map[string]float64{}}
	tc := obj(row["testCase"])
	vars := row["vars"]
	if vars == nil {
		vars = tc["vars"]
	}
	vb, _ := json.Marshal(vars) // map keys sorted: a canonical text of the test's variables
	in := string(vb)
	s.Digest = Digest(in)
	if n := iptr(row["testIdx"]); n != nil {
		s.ID = strconv.Itoa(*n)
	} else if vars != nil {
		// results version 2 has no testIdx, and its rows come in the order
		// they finished: the test is its variables (the same id for every
		// provider and in every file of the suite)
		s.ID = "vars:" + s.Digest[:12]
	} else {
		s.ID = strconv.Itoa(j)
	}
	if d, ok := Str(tc["description"]); ok && d != "" {
		in = d + "\n" + in
	}
	s.Input = Cut(in)
	var asserts []string
	for _, a := range arr(tc["assert"]) {
		am := obj(a)
		t, _ := Str(am["type"])
		if val, ok := am["value"]; ok {
			t += ": " + text(val)
		} else if th, ok := Num(am["threshold"]); ok {
			t += " ≤ " + strconv.FormatFloat(th, 'g', -1, 64)
		}
		asserts = append(asserts, t)
	}
	s.Target = Cut(strings.Join(asserts, "; "))
	resp := obj(row["response"])
	s.Output = Cut(text(resp["output"]))
	if sc, ok := Num(row["score"]); ok {
		s.Scores["score"] = sc
	}
	for k, v := range obj(row["namedScores"]) {
		if n, ok := Num(v); ok {
			s.Scores[namedScore+k] = n
		}
	}
	if b, ok := row["success"].(bool); ok {
		s.Passed = &b
	}
	gr := obj(row["gradingResult"])
	if r, ok := Str(gr["reason"]); ok {
		s.Explanation = Cut(r)
	}
	for _, c := range arr(gr["componentResults"]) {
		if pass, _ := obj(c)["pass"].(bool); pass {
			s.AssertPass++
		} else {
			s.AssertFail++
		}
	}
	errText, _ := Str(row["error"])
	fr := iptr(row["failureReason"])
	switch {
	case fr != nil && *fr == 2:
		s.Error = errText
		if s.Error == "" {
			s.Error = "error"
		}
	case fr == nil && gr == nil && errText != "":
		// older files have no failureReason: an error row has no grading
		s.Error = errText
	}
	if s.Error != "" {
		s.Error = Cut(s.Error)
	}
	s.LatencyMS = fptr(row["latencyMs"])
	s.CostUSD = fptr(row["cost"])
	if tu := obj(resp["tokenUsage"]); tu != nil {
		s.InTok, s.OutTok = iptr(tu["prompt"]), iptr(tu["completion"])
	}
	return s
}
