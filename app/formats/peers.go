package formats

import (
	"bytes"
	"encoding/json"
	"strings"

	"eval752/app/model"
)

// InspectEntries reports whether a zip's entry names are an Inspect AI
// .eval log: header.json or _journal/start.json at the root, and no
// manifest.json / meta.json (an eval752 bundle).
func InspectEntries(names []string) bool {
	inspect := false
	for _, n := range names {
		switch strings.TrimPrefix(n, "./") {
		case "header.json", "_journal/start.json":
			inspect = true
		case "manifest.json", "meta.json":
			return false
		}
	}
	return inspect
}

// peerFormat recognises the JSON logs of other tools by their top-level
// keys, read from the head of the file even when it is cut (a log is often
// larger than the head): Inspect (eval + results/samples/plan/status),
// lm-eval results (results + configs/versions/n-samples), promptfoo
// (evalId, or results holding prompts/stats), ranx qrels / runs (an object
// of objects of numbers; whole files only).
func peerFormat(base string, body []byte, complete bool) (model.Format, string) {
	if ek := firstElementKeys(body); ek != nil {
		switch {
		case ek["instance_id"] && ek["stats"]:
			return model.FormatHELMPerInstance, "a JSON array of objects with instance_id and stats: a HELM per_instance_stats.json"
		case ek["name"] && ek["count"] && (ek["mean"] || ek["sum"]):
			return model.FormatHELMStats, "a JSON array of objects with name, count, sum, mean: a HELM stats.json"
		}
		return model.FormatUnknown, ""
	}
	keys, sub := topKeys(body)
	has := func(k string) bool { return keys[k] }
	switch {
	case has("adapter_spec") && has("request_states"):
		return model.FormatHELMState, "top-level keys adapter_spec and request_states: a HELM scenario_state.json"
	case has("name") && has("scenario_spec") && has("adapter_spec"):
		return model.FormatHELMRunSpec, "top-level keys name, scenario_spec, adapter_spec: a HELM run_spec.json"
	case has("name") && has("description") && has("tags") && has("definition_path"):
		return model.FormatHELMScenario, "top-level keys name, description, tags, definition_path: a HELM scenario.json"
	case has("eval") && (has("samples") || has("results") || has("plan") || has("status") || has("version")) && sub["eval"]["task"]:
		return model.FormatInspectLog, "top-level keys eval (with task), status, results, samples: an Inspect AI EvalLog"
	case has("results") && (has("configs") || has("versions") || has("n-samples") || has("n-shot") || has("group_subtasks")):
		return model.FormatLMEvalResults, "top-level keys results, configs, versions, n-samples: an lm-evaluation-harness results file"
	case has("results") && has("stats") && has("table") && !has("eval"):
		return model.FormatPromptfoo, "top-level keys results, stats, table: a promptfoo output file (an early one: the summary itself)"
	case has("results") && (has("evalId") || sub["results"]["prompts"] || sub["results"]["stats"] || sub["results"]["timestamp"] && sub["results"]["results"]) && !has("eval"):
		return model.FormatPromptfoo, "top-level keys evalId, results.prompts, results.stats: a promptfoo output file"
	}
	if complete {
		if f, ok := ranxFormat(base, body); ok {
			return f, "an object of query ids, each an object of document ids to numbers: ranx " + strings.TrimPrefix(string(f), "ranx.")
		}
	}
	return model.FormatUnknown, ""
}

// topKeys streams the tokens of a JSON object and returns its top-level
// keys and, for object values, their keys; it stops at the end of body or
// the first syntax error (a cut head).
func topKeys(body []byte) (map[string]bool, map[string]map[string]bool) {
	keys := map[string]bool{}
	sub := map[string]map[string]bool{}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return keys, sub
	}
	depth := 1
	var cur string // top-level key whose value is being read
	expectKey := true
	for {
		t, err := dec.Token()
		if err != nil {
			return keys, sub
		}
		switch x := t.(type) {
		case json.Delim:
			switch x {
			case '{', '[':
				depth++
				if depth == 2 && x == '{' {
					sub[cur] = map[string]bool{}
				}
				if x == '[' && depth == 2 {
					expectKey = false
				}
				if depth == 2 && x == '{' {
					expectKey = true
				}
				continue
			case '}', ']':
				depth--
				if depth == 1 {
					expectKey = true
				} else if depth == 2 && sub[cur] != nil {
					expectKey = true
				}
				if depth == 0 {
					return keys, sub
				}
				continue
			}
		case string:
			if depth == 1 && expectKey {
				cur = x
				keys[x] = true
				expectKey = false
				continue
			}
			if depth == 2 && expectKey && sub[cur] != nil {
				sub[cur][x] = true
				expectKey = false
				continue
			}
		}
		// a scalar value
		if depth == 1 {
			expectKey = true
		} else if depth == 2 && sub[cur] != nil {
			expectKey = true
		}
	}
}

// ranxFormat: every top-level value is a non-empty object whose values are
// all numbers; all integers → qrels, else a run (a file named run* is a run
// even with integer scores).
func ranxFormat(base string, body []byte) (model.Format, bool) {
	var m map[string]map[string]json.Number
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	if dec.Decode(&m) != nil || len(m) == 0 {
		return model.FormatUnknown, false
	}
	ints := true
	for _, docs := range m {
		if len(docs) == 0 {
			return model.FormatUnknown, false
		}
		for _, n := range docs {
			if _, err := n.Int64(); err != nil {
				ints = false
			}
		}
	}
	if ints && !strings.HasPrefix(base, "run") {
		return model.FormatRanxQrels, true
	}
	return model.FormatRanxRun, true
}

// firstElementKeys returns the keys of the first element of a JSON array
// document when that element is an object (nil when body is not an array).
func firstElementKeys(body []byte) map[string]bool {
	dec := json.NewDecoder(bytes.NewReader(body))
	if t, err := dec.Token(); err != nil || t != json.Delim('[') {
		return nil
	}
	keys := map[string]bool{}
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return keys
	}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return keys
		}
		k, ok := t.(string)
		if !ok {
			return keys
		}
		keys[k] = true
		var skip json.RawMessage
		if dec.Decode(&skip) != nil {
			return keys
		}
	}
	return keys
}
