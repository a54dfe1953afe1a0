package audit

import (
	"strings"
	"testing"

	"eval752/app/dataset"
	"eval752/app/finding"
	"eval752/app/model"
)

func withVerdicts(t *testing.T, vs ...model.Verdict) *dataset.Dataset {
	t.Helper()
	ds := fixture(t)
	for i, v := range vs {
		ds.Verdicts = append(ds.Verdicts, dataset.Rec[model.Verdict]{Loc: testFiles.At("verdicts.jsonl", i+1, 0), V: v, Typed: true})
	}
	return ds
}

func codes(fs finding.List, code string) []finding.Finding {
	var out []finding.Finding
	for _, f := range fs {
		if f.Code == code {
			out = append(out, f)
		}
	}
	return out
}

// queueReview returns the review cell of qid's queue row.
func queueReview(t *testing.T, ds *dataset.Dataset) map[string]string {
	t.Helper()
	rep, _ := Audit(withFiles(ds), DefaultOptions())
	out := map[string]string{}
	for _, s := range rep.Sections {
		for _, tb := range s.Tables {
			if tb.ID != "refusal-queue" {
				continue
			}
			last := len(tb.Columns) - 1
			for _, r := range tb.Rows {
				out[r[1].Text] = r[last].Text
			}
		}
	}
	return out
}

// The fixture plants one answerable refuse question, R04 (seed 002's R12),
// flagged by the threshold: a verdict decides what the audit says about it.
func TestVerdictsReadBack(t *testing.T) {
	at := "2026-12-01T10:00:00Z"
	t.Run("none", func(t *testing.T) {
		ds := withVerdicts(t)
		_, fs := Audit(withFiles(ds), DefaultOptions())
		if n := len(codes(fs, "audit.refusal-similar")); n != 1 {
			t.Fatalf("%d refusal-similar findings without verdicts, want 1 (R04)", n)
		}
		if got := queueReview(t, ds)["R04"]; got != "REVIEW" {
			t.Errorf("R04 review cell %q, want REVIEW", got)
		}
	})
	t.Run("refuse-ok", func(t *testing.T) {
		ds := withVerdicts(t, model.Verdict{QID: "R04", Verdict: "refuse-ok", Reviewer: "li", At: at})
		_, fs := Audit(withFiles(ds), DefaultOptions())
		if n := len(codes(fs, "audit.refusal-similar")) + len(codes(fs, "audit.refusal-answerable")); n != 0 {
			t.Errorf("a refuse-ok question is flagged again: %v", fs)
		}
		if got := queueReview(t, ds)["R04"]; got != "reviewed: refuse-ok (li, "+at+")" {
			t.Errorf("R04 review cell %q", got)
		}
	})
	t.Run("answerable, the later of two", func(t *testing.T) {
		ds := withVerdicts(t,
			model.Verdict{QID: "R04", Verdict: "answerable", Reviewer: "li", At: at, Passage: "pat-inj-02", Note: "实施例一 gives every parameter"},
			model.Verdict{QID: "R04", Verdict: "unsure", Reviewer: "wang", At: "2026-12-01T09:00:00Z"})
		_, fs := Audit(withFiles(ds), DefaultOptions())
		a := codes(fs, "audit.refusal-answerable")
		if len(a) != 1 || len(codes(fs, "audit.refusal-similar")) != 0 {
			t.Fatalf("answerable verdict: %v", fs)
		}
		if a[0].Line != 52 || a[0].Severity != finding.Error || !strings.Contains(a[0].Message, "R04 was judged answerable by li (verdicts.jsonl:1), passage pat-inj-02") {
			t.Errorf("finding %s", a[0].String())
		}
	})
	t.Run("unsure stays flagged", func(t *testing.T) {
		ds := withVerdicts(t, model.Verdict{QID: "R04", Verdict: "unsure", Reviewer: "wang", At: at})
		_, fs := Audit(withFiles(ds), DefaultOptions())
		s := codes(fs, "audit.refusal-similar")
		if len(s) != 1 || !strings.Contains(s[0].Message, "reviewed unsure by wang") {
			t.Errorf("unsure verdict: %v", s)
		}
		if got := queueReview(t, ds)["R04"]; !strings.HasPrefix(got, "REVIEW reviewed: unsure (wang") {
			t.Errorf("R04 review cell %q", got)
		}
	})
	t.Run("an unknown verdict decides nothing", func(t *testing.T) {
		// the reader reports "maybe" as schema.enum; the audit ignores it
		ds := withVerdicts(t, model.Verdict{QID: "R04", Verdict: "maybe", Reviewer: "li", At: at})
		_, fs := Audit(withFiles(ds), DefaultOptions())
		if len(codes(fs, "audit.refusal-similar")) != 1 || len(codes(fs, "audit.verdict-qid")) != 0 {
			t.Errorf("a verdict outside the enum changed the audit: %v", fs)
		}
	})
	t.Run("unknown qid", func(t *testing.T) {
		// D01 is an answerable question, X99 does not exist
		ds := withVerdicts(t, model.Verdict{QID: "D01", Verdict: "refuse-ok", Reviewer: "li", At: at}, model.Verdict{QID: "X99", Verdict: "unsure", Reviewer: "li", At: at})
		_, fs := Audit(withFiles(ds), DefaultOptions())
		q := codes(fs, "audit.verdict-qid")
		if len(q) != 2 || q[0].Path != "verdicts.jsonl" || q[0].Line != 1 || q[1].Line != 2 || q[0].Pointer != "/qid" {
			t.Errorf("verdict-qid findings: %v", q)
		}
		if len(codes(fs, "audit.refusal-similar")) != 1 {
			t.Errorf("R04 without its own verdict must stay flagged")
		}
	})
}
