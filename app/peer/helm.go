package peer

import (
	"path"
	"sort"
	"strings"

	"eval752/app/model"
)

// ToolHELM is Stanford CRFM's HELM.
const ToolHELM = "helm"

// helmPart is what one file of a HELM run folder contributed, kept until
// Link merges the folder's files into one Log.
type helmPart struct {
	instances map[string]helmInstance // scenario_state: instance id → texts
	model     string
}

type helmInstance struct {
	input, ref, output, split string
}

// helmDir is the pairing key of a HELM run folder's files: their folder.
func helmDir(p string) string {
	p = strings.ReplaceAll(p, "\\", "/")
	if i := strings.LastIndexByte(p, '!'); i >= 0 {
		p = p[:i] + "/" + p[i+1:]
	}
	return path.Dir(p)
}

// helmTask is a run name without its model= argument, so two models' runs
// of one scenario share a task ("mmlu:subject=philosophy,method=multiple_choice_joint").
func helmTask(name string) string {
	head, args, ok := strings.Cut(name, ":")
	if !ok {
		return name
	}
	var keep []string
	for _, a := range strings.Split(args, ",") {
		if !strings.HasPrefix(a, "model=") {
			keep = append(keep, a)
		}
	}
	if len(keep) == 0 {
		return head // "narrative_qa:model=openai_gpt2" → "narrative_qa"
	}
	return head + ":" + strings.Join(keep, ",")
}

// HELM reads one file of a HELM run folder (run_spec.json, scenario.json,
// scenario_state.json, per_instance_stats.json, stats.json) into a partial
// Log; Link merges the files of one folder.
func HELM(f model.Format, p string, v any) *Log {
	l := &Log{Path: p, Format: f, Tool: ToolHELM, Stamp: helmDir(p), Reducers: map[string]string{}, helm: &helmPart{}}
	switch f {
	case model.FormatHELMRunSpec:
		m := obj(v)
		if n, ok := Str(m["name"]); ok {
			l.Task = helmTask(n)
		}
		l.helm.model, _ = Str(obj(m["adapter_spec"])["model"])
	case model.FormatHELMState:
		m := obj(v)
		if mdl, ok := Str(obj(m["adapter_spec"])["model"]); ok {
			l.helm.model = mdl
		}
		l.helm.instances = map[string]helmInstance{}
		for _, e := range arr(m["request_states"]) {
			rs := obj(e)
			inst := obj(rs["instance"])
			id, _ := Str(inst["id"])
			if id == "" {
				continue
			}
			hi := helmInstance{}
			hi.input, _ = Str(obj(inst["input"])["text"])
			hi.split, _ = Str(inst["split"])
			var refs []string
			for _, r := range arr(inst["references"]) {
				rm := obj(r)
				for _, tag := range arr(rm["tags"]) {
					if t, _ := Str(tag); t == "correct" {
						s, _ := Str(obj(rm["output"])["text"])
						refs = append(refs, s)
					}
				}
			}
			hi.ref = strings.Join(refs, " | ")
			if c := arr(obj(rs["result"])["completions"]); len(c) > 0 {
				hi.output, _ = Str(obj(c[0])["text"])
			}
			if _, dup := l.helm.instances[id]; !dup {
				l.helm.instances[id] = hi
			}
		}
	case model.FormatHELMPerInstance:
		run := &Run{Idx: -1}
		l.Runs = []*Run{run}
		for i, e := range arr(v) {
			pi := obj(e)
			id, _ := Str(pi["instance_id"])
			if id == "" {
				continue
			}
			s := Sample{Loc: Loc{Path: p, Pointer: ptr("", i)}, ID: id, Epoch: 1, Scores: map[string]float64{}}
			if t := iptr(pi["train_trial_index"]); t != nil {
				s.Epoch = *t + 1
			}
			for _, st := range arr(pi["stats"]) {
				sm := obj(st)
				nm := obj(sm["name"])
				name, _ := Str(nm["name"])
				split, _ := Str(nm["split"])
				if name == "" || nm["perturbation"] != nil {
					continue
				}
				val, ok := helmValue(sm)
				if !ok {
					continue
				}
				s.Scores[name] = val
				if split != "" {
					s.Scores[name+"@"+split] = val
				}
			}
			run.Samples = append(run.Samples, s)
		}
	case model.FormatHELMStats:
		for i, e := range arr(v) {
			sm := obj(e)
			nm := obj(sm["name"])
			name, _ := Str(nm["name"])
			split, _ := Str(nm["split"])
			mean, ok := Num(sm["mean"])
			if name == "" || nm["perturbation"] != nil || !ok {
				continue
			}
			sc := name
			if split != "" {
				sc += "@" + split
			}
			l.Reported = append(l.Reported, Reported{Loc: Loc{Path: p, Pointer: ptr("", i, "mean")}, Scorer: sc, Metric: "mean", Value: mean})
		}
	}
	return l
}

// helmValue is a per-instance stat's value: its mean, else sum / count.
func helmValue(sm map[string]any) (float64, bool) {
	if m, ok := Num(sm["mean"]); ok {
		return m, true
	}
	s, ok1 := Num(sm["sum"])
	c, ok2 := Num(sm["count"])
	if ok1 && ok2 && c > 0 {
		return s / c, true
	}
	return 0, false
}

// helmPrimary are HELM's correctness stats in order of preference.
var helmPrimary = []string{"exact_match", "quasi_exact_match", "prefix_exact_match", "quasi_prefix_exact_match", "f1_score", "rouge_l"}

// mergeHELM merges the partial logs of HELM run folders: one Log per
// folder, with the per-instance stats as samples (their texts from
// scenario_state.json), the stats.json means as the reported numbers and
// run_spec.json's name as the task.
func mergeHELM(logs []*Log) []*Log {
	var out []*Log
	byDir := map[string]*Log{}
	for _, l := range logs {
		if l.Tool != ToolHELM {
			out = append(out, l)
			continue
		}
		m, ok := byDir[l.Stamp]
		if !ok {
			m = &Log{Path: l.Path, Format: model.FormatHELMPerInstance, Tool: ToolHELM, Stamp: l.Stamp, Reducers: map[string]string{}, helm: &helmPart{}}
			byDir[l.Stamp] = m
			out = append(out, m)
		}
		if l.Task != "" {
			m.Task = l.Task
		}
		if l.helm.model != "" && (m.helm.model == "" || l.Format == model.FormatHELMRunSpec) {
			m.helm.model = l.helm.model
		}
		if l.helm.instances != nil {
			m.helm.instances = l.helm.instances
		}
		if l.Format == model.FormatHELMPerInstance {
			m.Runs = l.Runs
			m.Path = l.Path // the samples' file names the log
		}
		m.Reported = append(m.Reported, l.Reported...)
	}
	for _, m := range byDir {
		if m.Task == "" {
			m.Task = path.Base(m.Stamp)
		}
		name := m.helm.model
		if name == "" {
			name = path.Base(m.Stamp)
		}
		if len(m.Runs) == 0 {
			m.Runs = []*Run{{Idx: -1}}
		}
		m.Runs[0].Name, m.Runs[0].Model = name, name
		names := map[string]bool{}
		for i := range m.Runs[0].Samples {
			s := &m.Runs[0].Samples[i]
			for k := range s.Scores {
				names[k] = true
			}
			if hi, ok := m.helm.instances[s.ID]; ok {
				s.Digest = Digest(hi.input)
				s.Input, s.Target, s.Output, s.Split = Cut(hi.input), Cut(hi.ref), Cut(hi.output), hi.split
			}
		}
		m.Scorers = nil
		for _, p := range helmPrimary {
			if names[p] {
				m.Scorers = append(m.Scorers, p)
				break
			}
		}
		var rest []string
		for k := range names {
			if len(m.Scorers) == 0 || k != m.Scorers[0] {
				rest = append(rest, k)
			}
		}
		sort.Strings(rest)
		m.Scorers = append(m.Scorers, rest...)
		for i := range m.Reported {
			m.Reported[i].Run = name
		}
		m.helm = nil
	}
	return out
}
