package engine

import (
	"io"

	"eval752/app/dataset"
	"eval752/app/finding"
	"eval752/app/report"
)

// ValidateInput is one input of the validation document (the CLI contract:
// path, format, sha256, lines).
type ValidateInput struct {
	Path   string `json:"path"`
	Format string `json:"format"`
	SHA256 string `json:"sha256"`
	Lines  int    `json:"lines"`
}

// ValidateOutput is the JSON document `eval752 validate --json` prints and
// the page's findings JSON export downloads.
type ValidateOutput struct {
	Inputs   []ValidateInput `json:"inputs"`
	Findings finding.List    `json:"findings"`
	Counts   finding.Counts  `json:"counts"`
}

// WriteValidateJSON writes the validation document of inputs and findings.
func WriteValidateJSON(w io.Writer, inputs []dataset.InputInfo, findings finding.List) error {
	if findings == nil {
		findings = finding.List{}
	}
	out := ValidateOutput{Inputs: []ValidateInput{}, Findings: findings, Counts: findings.Counts()}
	for _, in := range inputs {
		out.Inputs = append(out.Inputs, ValidateInput{Path: in.Path, Format: string(in.Format), SHA256: in.SHA256, Lines: in.Lines})
	}
	// streamed (report.Stream): the bytes of encoding out whole
	s := report.NewStream(w)
	s.Object(0,
		report.Field{Key: "inputs", V: out.Inputs},
		report.Field{Key: "findings", Write: func(d int) {
			s.Array(d, len(findings), false, func(i, d int) { s.Value(d, findings[i]) })
		}},
		report.Field{Key: "counts", V: out.Counts},
	)
	return s.Close()
}
