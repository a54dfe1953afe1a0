package formats

import (
	"os"
	"testing"

	"eval752/app/model"
)

// TestDetectPeers: every peer fixture (../peer/testdata, hand-written in the
// tools' shapes) is detected from its content, whatever its name; a log cut
// after its first keys (a head of a large file) still is.
func TestDetectPeers(t *testing.T) {
	for _, c := range []struct {
		file string
		want model.Format
	}{
		{"inspect_log/capitals_wrong_headline.json", model.FormatInspectLog},
		{"inspect_eval/header.json", model.FormatInspectLog},
		{"lm_eval/results_2025-01-01T00-00-00.000001.json", model.FormatLMEvalResults},
		{"lm_eval/samples_capitals_2025-01-01T00-00-00.000001.jsonl", model.FormatLMEvalSamples},
		{"promptfoo/results.json", model.FormatPromptfoo},
		{"promptfoo/results_v2.json", model.FormatPromptfoo},
		{"promptfoo/results_v1.json", model.FormatPromptfoo},
		{"inspect_variants/v1.json", model.FormatInspectLog},
		{"ir/qrels.json", model.FormatRanxQrels},
		{"ir/run.json", model.FormatRanxRun},
		{"ir/qrels.tsv", model.FormatBEIRQrels},
		{"helm/capitals_mockllm/run_spec.json", model.FormatHELMRunSpec},
		{"helm/capitals_mockllm/scenario.json", model.FormatHELMScenario},
		{"helm/capitals_mockllm/scenario_state.json", model.FormatHELMState},
		{"helm/capitals_mockllm/per_instance_stats.json", model.FormatHELMPerInstance},
		{"helm/capitals_mockllm/stats.json", model.FormatHELMStats},
	} {
		b, err := os.ReadFile("../peer/testdata/" + c.file)
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range []string{c.file, "renamed.json", "renamed.txt"} {
			if name == "renamed.json" && c.want == model.FormatLMEvalSamples || name != c.file && c.want == model.FormatBEIRQrels {
				continue
			}
			if got := Detect(name, b, true).Format; got != c.want {
				t.Errorf("%s as %s: detected %q, want %q", c.file, name, got, c.want)
			}
		}
		// the earliest promptfoo output (results_v1.json) has its stats and
		// table after the rows: recognised whole only (docs/formats.md)
		if c.want == model.FormatInspectLog || c.want == model.FormatPromptfoo && c.file != "promptfoo/results_v1.json" || c.want == model.FormatLMEvalResults || c.want == model.FormatHELMState || c.want == model.FormatHELMPerInstance {
			if got := Detect(c.file, b[:len(b)/2], false).Format; got != c.want {
				t.Errorf("%s cut in half: detected %q, want %q", c.file, got, c.want)
			}
		}
	}
	if !InspectEntries([]string{"_journal/start.json", "samples/1_epoch_1.json", "header.json"}) {
		t.Error("an .eval's entries are not Inspect's")
	}
	if InspectEntries([]string{"manifest.json", "meta.json", "header.json"}) {
		t.Error("an eval752 bundle with a header.json is taken for an Inspect log")
	}
}
