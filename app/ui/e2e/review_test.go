//go:build !js

package e2e

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestReviewVerdictExport records a verdict on the refusal review queue of
// the demo (Audit view), downloads the verdict file, and checks that it is
// an eval752.verdict line the CLI reads back: `eval752 audit` on the demo
// plus the downloaded file reports the question as judged answerable.
func TestReviewVerdictExport(t *testing.T) {
	b := newBrowser(t)
	b.open()
	dl := b.downloads()
	b.upload(env.demo)
	b.waitReady(60 * time.Second)
	b.tab("audit")
	b.waitJS(`!!document.querySelector('[data-test=review-queue] [data-test=queue-row]')`, 20*time.Second)
	qid := eval[string](b, `document.querySelector('[data-test=queue-row]').dataset.qid`)
	if qid == "" {
		t.Fatal("the first queue row names no question")
	}
	eval[bool](b, `(() => { const el = document.querySelector('[data-test=verdict-reviewer]'); el.value = 'e2e reviewer'; el.dispatchEvent(new Event('input', {bubbles: true})); return true })()`)
	b.click(`[data-test=queue-row] [data-test=verdict-answerable]`)
	b.waitJS(`document.querySelector('[data-test=queue-row] [data-test=verdict-state]').textContent.trim() === 'answerable'`, 5*time.Second)
	b.click(`[data-test=export-verdicts]`)
	got := waitFile(t, dl, "eval752-verdicts.jsonl", 20*time.Second)

	lines := bytes.Split(bytes.TrimSpace(got), []byte("\n"))
	if len(lines) != 1 {
		t.Fatalf("verdict file has %d lines, want 1:\n%s", len(lines), got)
	}
	var v map[string]string
	if err := json.Unmarshal(lines[0], &v); err != nil {
		t.Fatalf("verdict line %q: %v", lines[0], err)
	}
	if v["qid"] != qid || v["verdict"] != "answerable" || v["reviewer"] != "e2e reviewer" {
		t.Errorf("verdict line %s: want qid %q, verdict answerable, reviewer \"e2e reviewer\"", lines[0], qid)
	}
	if _, err := time.Parse(time.RFC3339, v["at"]); err != nil {
		t.Errorf("verdict time %q: %v", v["at"], err)
	}

	// the audit reads the file back (format detected by content)
	vf := filepath.Join(t.TempDir(), "verdicts.jsonl")
	if err := os.WriteFile(vf, got, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(env.bin, "audit", "--json", env.demo, vf).Output()
	if ee, ok := err.(*exec.ExitError); err != nil && !(ok && ee.ExitCode() == 1) {
		t.Fatalf("eval752 audit: %v", err)
	}
	var res struct {
		Findings []struct {
			Code    string `json:"code"`
			Message string `json:"message"`
		} `json:"findings"`
	}
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, f := range res.Findings {
		if f.Code == "audit.verdict-qid" || f.Code == "schema.enum" {
			t.Errorf("the exported verdict is not read back cleanly: %s %s", f.Code, f.Message)
		}
		if f.Code == "audit.refusal-answerable" && strings.Contains(f.Message, "refuse question "+qid+" ") {
			found = true
		}
	}
	if !found {
		t.Errorf("`eval752 audit` with the exported verdicts does not report %s as judged answerable", qid)
	}
	b.assertPrivate()
}
