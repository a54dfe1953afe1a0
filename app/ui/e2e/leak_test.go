//go:build !js

package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestSplitLeakValidationFindings: the split-isolation gates (seed 003
// §3.3, §4.5) are validation findings on the page too, as `validate` reports
// them (issue 11 item 2). documents.jsonl: d1-scan (test) holds d1's (train)
// text and family f1 → audit.leak-doc-exact and audit.leak-family-split,
// both errors, at line 2. The page's counts and finding rows must equal the
// CLI's, and the CLI must count those two errors.
func TestSplitLeakValidationFindings(t *testing.T) {
	dir := t.TempDir()
	docs := filepath.Join(dir, "documents.jsonl")
	text := "演示矿区位于示例地区北部，出露地层以侏罗系火山岩为主，斑岩体呈岩株状侵入，蚀变分带自内向外依次为钾化带、绢英岩化带和青磐岩化带，铜矿化主要赋存于绢英岩化带中。"
	lines := []string{
		`{"doc_id":"d1","title":"d1","split":"train","duplicate_family_id":"f1","text":"` + text + `"}`,
		`{"doc_id":"d1-scan","title":"d1 scan","split":"test","duplicate_family_id":"f1","text":"` + text + `"}`,
	}
	if err := os.WriteFile(docs, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	v := cliValidate(t, docs)
	leaks := 0
	for _, f := range v.Findings {
		if (f.Code == "audit.leak-doc-exact" || f.Code == "audit.leak-family-split") && f.Line == 2 {
			leaks++
		}
	}
	if leaks != 2 || v.Counts.Error != 2 {
		t.Fatalf("CLI validate: %d leak findings at line 2, %d errors; want 2 and 2: %+v", leaks, v.Counts.Error, v.Findings)
	}
	b := newBrowser(t)
	b.do(chromedp.Navigate(env.baseURL + "/"))
	b.upload(docs)
	b.waitHookReady(90 * time.Second)
	checkHooks(t, b, docs, false)
}
