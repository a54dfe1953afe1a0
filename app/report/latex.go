package report

import (
	"io"
	"slices"
	"strings"
)

// WriteLaTeX writes the tables of r whose ID starts with one of prefixes as LaTeX
// tabulars (booktabs rules), one table environment each, for a paper: the
// comparison table of `compare --baseline … --latex` (ranx's to_latex). A
// figure prints its value only (no CI, n or target: the Markdown and text
// reports carry them); a flag of ▲ / ▼ becomes a superscript
// $^{\blacktriangle}$ / $^{\blacktriangledown}$ (amssymb), any other flag a
// footnote-size remark. Text is escaped for LaTeX.
func (r *Report) WriteLaTeX(w io.Writer, prefixes ...string) error {
	ew := &errWriter{w: w}
	ew.printf("%% %s — %s %s\n", latexEscape(r.Title), r.Tool.Name, r.Tool.Version)
	ew.printf("%% needs \\usepackage{booktabs} and \\usepackage{amssymb}\n")
	for _, s := range r.Sections {
		for _, t := range s.Tables {
			if !slices.ContainsFunc(prefixes, func(p string) bool { return strings.HasPrefix(t.ID, p) }) {
				continue
			}
			ew.printf("\n\\begin{table}[t]\n\\centering\n")
			ew.printf("\\caption{%s}\n\\label{tab:%s}\n", latexEscape(t.Title), latexEscape(t.ID))
			ew.printf("\\begin{tabular}{l%s}\n\\toprule\n", strings.Repeat("r", max(0, len(t.Columns)-1)))
			var hs []string
			for _, c := range t.Columns {
				hs = append(hs, latexEscape(c.Label))
			}
			ew.printf("%s \\\\\n\\midrule\n", strings.Join(hs, " & "))
			for _, row := range t.Rows {
				var cs []string
				for _, c := range row {
					cs = append(cs, latexCell(c))
				}
				ew.printf("%s \\\\\n", strings.Join(cs, " & "))
			}
			ew.printf("\\bottomrule\n\\end{tabular}\n")
			for _, n := range t.Notes {
				ew.printf("\\par\\footnotesize %s\n", latexEscape(n))
			}
			ew.printf("\\end{table}\n")
		}
	}
	return ew.err
}

func latexCell(c Cell) string {
	if c.Value == nil && c.Metric == "" {
		return latexEscape(c.Text)
	}
	s := latexEscape(c.FormatValue())
	switch c.Flag {
	case "":
	case "▲":
		s += "$^{\\blacktriangle}$"
	case "▼":
		s += "$^{\\blacktriangledown}$"
	default:
		s += " {\\footnotesize (" + latexEscape(c.Flag) + ")}"
	}
	return s
}

var latexReplacer = strings.NewReplacer(
	`\`, `\textbackslash{}`, `{`, `\{`, `}`, `\}`, `$`, `\$`, `&`, `\&`, `#`, `\#`,
	`%`, `\%`, `_`, `\_`, `^`, `\textasciicircum{}`, `~`, `\textasciitilde{}`,
	"<", `\textless{}`, ">", `\textgreater{}`,
	"≥", `$\geq$`, "≤", `$\leq$`, "−", `$-$`, "Δ", `$\Delta$`, "▲", `$\blacktriangle$`, "▼", `$\blacktriangledown$`,
	"\n", " ", "\r", " ",
)

func latexEscape(s string) string { return latexReplacer.Replace(s) }
