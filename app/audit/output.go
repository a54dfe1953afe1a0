package audit

import (
	"fmt"
	"io"
	"strings"

	"eval752/app/finding"
	"eval752/app/report"
)

// Output is the JSON document of an audit: `eval752 audit --json` prints it
// and the page's Audit export downloads it.
type Output struct {
	Report   *report.Report `json:"report,omitempty"` // absent in draft mode
	Findings finding.List   `json:"findings"`
	Counts   finding.Counts `json:"counts"`
}

// WriteJSON writes rep and findings as one indented Output document.
func WriteJSON(w io.Writer, rep *report.Report, findings finding.List) error {
	if findings == nil {
		findings = finding.List{}
	}
	// streamed (report.Stream): the bytes of encoding Output whole
	s := report.NewStream(w)
	s.Object(0,
		report.Field{Key: "report", Omit: rep == nil, Write: func(d int) { s.WriteReport(d, rep) }},
		report.Field{Key: "findings", Write: func(d int) {
			s.Array(d, len(findings), false, func(i, d int) { s.Value(d, findings[i]) })
		}},
		report.Field{Key: "counts", V: findings.Counts()},
	)
	return s.Close()
}

// WriteMarkdown writes rep (when not nil) as Markdown, then its findings as
// a list and their counts.
func WriteMarkdown(w io.Writer, rep *report.Report, findings finding.List) error {
	if rep != nil {
		if err := rep.WriteMarkdown(w); err != nil {
			return err
		}
	}
	c := findings.Counts()
	var b strings.Builder
	b.WriteString("## Findings\n\n")
	// one list item per finding: line breaks are spaces, other control
	// characters show escaped (finding.Inert)
	oneLine := strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ")
	for _, f := range findings {
		fmt.Fprintf(&b, "* `%s:%d` %s **%s**: %s\n", finding.Inert(f.Path), f.Line, f.Severity, f.Code, finding.Inert(oneLine.Replace(f.Message)))
	}
	fmt.Fprintf(&b, "\n%d error(s), %d warning(s), %d info\n", c.Error, c.Warning, c.Info)
	_, err := io.WriteString(w, b.String())
	return err
}
