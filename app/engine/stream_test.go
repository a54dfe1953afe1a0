package engine

import (
	"bytes"
	"encoding/json"
	"testing"

	"eval752/app/audit"
	"eval752/app/dataset"
	"eval752/app/finding"
	"eval752/app/report"
)

func whole(t *testing.T, v any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// The validation and audit documents are streamed; their bytes are those
// of encoding the whole document at once (empty, with findings, with a
// capped summary, without a report).
func TestStreamedDocumentsSameBytes(t *testing.T) {
	fs := finding.List{
		{Severity: finding.Error, Code: "schema.required", Path: "a <b>.jsonl", Line: 3, Pointer: "/id", Message: "\"id\" is required — 中文", Hint: "add it"},
		{Severity: finding.Warning, Code: "x.y", Path: "a.jsonl", More: 48211, Message: "… and 48,211 more"},
	}
	inputs := []dataset.InputInfo{{Path: "a.jsonl", Format: "eval752.item", SHA256: "ff", Lines: 3}}
	for _, l := range []finding.List{nil, {}, fs} {
		var got bytes.Buffer
		if err := WriteValidateJSON(&got, inputs, l); err != nil {
			t.Fatal(err)
		}
		ref := l
		if ref == nil {
			ref = finding.List{}
		}
		want := ValidateOutput{Inputs: []ValidateInput{{Path: "a.jsonl", Format: "eval752.item", SHA256: "ff", Lines: 3}}, Findings: ref, Counts: ref.Counts()}
		if w := whole(t, want); !bytes.Equal(got.Bytes(), w) {
			t.Errorf("validate document streamed\n%s\nwant\n%s", got.Bytes(), w)
		}
		for _, rep := range []*report.Report{nil, {Kind: "audit", Sections: []report.Section{{ID: "g", Title: "gates"}}}} {
			got.Reset()
			if err := audit.WriteJSON(&got, rep, l); err != nil {
				t.Fatal(err)
			}
			if w := whole(t, audit.Output{Report: rep, Findings: ref, Counts: ref.Counts()}); !bytes.Equal(got.Bytes(), w) {
				t.Errorf("audit document streamed\n%s\nwant\n%s", got.Bytes(), w)
			}
		}
	}
}
