package resolve

import (
	"fmt"
	"strconv"
	"strings"

	"eval752/app/model"
)

// AtomTable indexes one run's atom table by id and by source.
type AtomTable struct {
	atoms    []model.Atom
	byID     map[string]int
	bySource map[string][]int
	// Duplicates lists atom ids that appear more than once (the first wins).
	Duplicates []string
}

// NewAtomTable indexes atoms; a repeated atom_id keeps its first row.
func NewAtomTable(atoms []model.Atom) *AtomTable {
	t := &AtomTable{byID: map[string]int{}, bySource: map[string][]int{}}
	for _, a := range atoms {
		if _, dup := t.byID[a.AtomID]; dup {
			t.Duplicates = append(t.Duplicates, a.AtomID)
			continue
		}
		t.byID[a.AtomID] = len(t.atoms)
		t.bySource[a.SourceID] = append(t.bySource[a.SourceID], len(t.atoms))
		t.atoms = append(t.atoms, a)
	}
	return t
}

// Len is the number of distinct atoms.
func (t *AtomTable) Len() int { return len(t.atoms) }

// Lookup returns the atom with id.
func (t *AtomTable) Lookup(id string) (model.Atom, bool) {
	i, ok := t.byID[id]
	if !ok {
		return model.Atom{}, false
	}
	return t.atoms[i], true
}

// HasSource reports whether any atom belongs to source.
func (t *AtomTable) HasSource(source string) bool { return len(t.bySource[source]) > 0 }

// ResolveRegion resolves one b-2 gold entry (seed 000 §3) to the atoms of t
// that overlap its region:
//
//	pdf            {"page"} / {"page","block"}: atoms of that page (and block;
//	               a page-level atom holds every block)
//	image          {}: every atom of the image
//	ui_screenshot  {"bbox":[x0,y0,x1,y1]}: atoms whose bbox intersects it (positive area)
//	video          {"t_start","t_end"}: atoms whose [t_start,t_end) overlaps it
//	code           {"path","symbol"}: atoms of that path listing the symbol;
//	               {"path","line"}: atoms of that path whose [line_start,line_end] holds the line
//	conversation   {"turn"}: atoms of that turn
//	any            {"char_start","char_end"}: atoms whose char span overlaps it
//
// An atom that lacks the modality's extent (no page, no bbox, …) is the
// whole source: it matches, with the problem "coarse atom (whole source)".
func ResolveRegion(t *AtomTable, g model.B2Gold, modality string) Resolution {
	r := Resolution{Label: regionLabel(g, modality)}
	idx := t.bySource[g.SourceID]
	if len(idx) == 0 {
		r.addProblem(ProblemUnknownSource)
		return r
	}
	reg := g.Region
	if _, ok := reg["char_start"]; ok {
		return resolveChars(t, idx, reg, r)
	}
	switch modality {
	case "pdf":
		page, ok := integer(reg["page"])
		if !ok {
			r.addProblem(ProblemBadRegion)
			return r
		}
		block, hasBlock := 0, false
		if v, present := reg["block"]; present && v != nil {
			if block, hasBlock = integer(v); !hasBlock {
				r.addProblem(ProblemBadRegion)
				return r
			}
		}
		for _, i := range idx {
			a := t.atoms[i]
			switch {
			case a.Page == nil:
				r.Atoms = append(r.Atoms, a.AtomID)
				r.addProblem(ProblemWholeSource)
			case *a.Page == page && (!hasBlock || a.Block == nil || *a.Block == block):
				r.Atoms = append(r.Atoms, a.AtomID)
			}
		}
	case "image":
		for _, i := range idx {
			r.Atoms = append(r.Atoms, t.atoms[i].AtomID)
		}
	case "ui_screenshot":
		box, ok := bbox(reg["bbox"])
		if !ok {
			r.addProblem(ProblemBadRegion)
			return r
		}
		var parts [][4]float64
		for _, i := range idx {
			a := t.atoms[i]
			if len(a.BBox) != 4 {
				r.Atoms = append(r.Atoms, a.AtomID)
				r.addProblem(ProblemWholeSource)
				continue
			}
			ab := [4]float64{a.BBox[0], a.BBox[1], a.BBox[2], a.BBox[3]}
			if intersects(box, ab) {
				r.Atoms = append(r.Atoms, a.AtomID)
				parts = append(parts, ab)
			}
		}
		if len(parts) > 0 && !anyContains(parts, box) && !strings.Contains(r.Problem, ProblemWholeSource) {
			if len(parts) > 1 {
				r.addProblem(ProblemCrosses)
			} else {
				r.addProblem(ProblemPartial)
			}
		}
	case "video":
		s, ok1 := number(reg["t_start"])
		e, ok2 := number(reg["t_end"])
		if !ok1 || !ok2 || e < s {
			r.addProblem(ProblemBadRegion)
			return r
		}
		g := span{s, e}
		var parts []span
		whole := false
		for _, i := range idx {
			a := t.atoms[i]
			if a.TStart == nil || a.TEnd == nil {
				r.Atoms = append(r.Atoms, a.AtomID)
				whole = true
				continue
			}
			as := span{*a.TStart, *a.TEnd}
			if g.overlaps(as) {
				r.Atoms = append(r.Atoms, a.AtomID)
				parts = append(parts, as)
			}
		}
		if whole {
			r.addProblem(ProblemWholeSource)
		} else if len(parts) > 0 {
			r.addProblem(classify(g, parts))
		}
	case "code":
		path, _ := reg["path"].(string)
		sym, hasSym := reg["symbol"].(string)
		line, hasLine := integer(reg["line"])
		if path == "" || (!hasSym && !hasLine) {
			r.addProblem(ProblemBadRegion)
			return r
		}
		g := span{float64(line), float64(line) + 1}
		for _, i := range idx {
			a := t.atoms[i]
			if a.Path != "" && a.Path != path {
				continue
			}
			switch {
			case hasSym && containsString(a.Symbols, sym):
				r.Atoms = append(r.Atoms, a.AtomID)
			case hasLine && a.LineStart != nil && a.LineEnd != nil:
				if g.overlaps(span{float64(*a.LineStart), float64(*a.LineEnd) + 1}) {
					r.Atoms = append(r.Atoms, a.AtomID)
				}
			case len(a.Symbols) == 0 && a.LineStart == nil && a.LineEnd == nil:
				r.Atoms = append(r.Atoms, a.AtomID)
				r.addProblem(ProblemWholeSource)
			}
		}
		// A symbol in several atoms was split by the chunker.
		if hasSym && !strings.Contains(r.Problem, ProblemWholeSource) && len(r.Atoms) > 1 {
			r.addProblem(ProblemCrosses)
		}
	case "conversation":
		turn, ok := integer(reg["turn"])
		if !ok {
			r.addProblem(ProblemBadRegion)
			return r
		}
		for _, i := range idx {
			a := t.atoms[i]
			switch {
			case a.Turn == nil:
				r.Atoms = append(r.Atoms, a.AtomID)
				r.addProblem(ProblemWholeSource)
			case *a.Turn == turn:
				r.Atoms = append(r.Atoms, a.AtomID)
			}
		}
	default:
		r.addProblem(ProblemModality)
		return r
	}
	if len(r.Atoms) == 0 {
		r.addProblem(ProblemNoAtom)
	}
	return r
}

// resolveChars resolves a char-offset region [char_start, char_end).
func resolveChars(t *AtomTable, idx []int, reg map[string]any, r Resolution) Resolution {
	s, ok1 := integer(reg["char_start"])
	e, ok2 := integer(reg["char_end"])
	if !ok1 || !ok2 || e <= s {
		r.addProblem(ProblemBadRegion)
		return r
	}
	g := span{float64(s), float64(e)}
	var parts []span
	for _, i := range idx {
		a := t.atoms[i]
		if a.CharStart == nil || a.CharEnd == nil {
			continue
		}
		as := span{float64(*a.CharStart), float64(*a.CharEnd)}
		if g.overlaps(as) {
			r.Atoms = append(r.Atoms, a.AtomID)
			parts = append(parts, as)
		}
	}
	r.addProblem(classify(g, parts))
	return r
}

func containsString(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

func bbox(v any) ([4]float64, bool) {
	var b [4]float64
	xs, ok := v.([]any)
	if !ok {
		if fs, ok := v.([]float64); ok && len(fs) == 4 {
			copy(b[:], fs)
			return b, b[0] <= b[2] && b[1] <= b[3]
		}
		return b, false
	}
	if len(xs) != 4 {
		return b, false
	}
	for i, x := range xs {
		f, ok := number(x)
		if !ok {
			return b, false
		}
		b[i] = f
	}
	return b, b[0] <= b[2] && b[1] <= b[3]
}

// intersects: positive-area intersection of [x0,y0,x1,y1] boxes.
func intersects(a, b [4]float64) bool {
	return max(a[0], b[0]) < min(a[2], b[2]) && max(a[1], b[1]) < min(a[3], b[3])
}

func anyContains(parts [][4]float64, g [4]float64) bool {
	for _, p := range parts {
		if p[0] <= g[0] && p[1] <= g[1] && g[2] <= p[2] && g[3] <= p[3] {
			return true
		}
	}
	return false
}

func fnum(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

// regionLabel writes a gold entry for people: "PH_2016.pdf p.5 block 2".
func regionLabel(g model.B2Gold, modality string) string {
	reg := g.Region
	src := g.SourceID
	if s, ok := integer(reg["char_start"]); ok {
		e, _ := integer(reg["char_end"])
		return fmt.Sprintf("%s [%d,%d)", src, s, e)
	}
	switch modality {
	case "pdf":
		p, _ := integer(reg["page"])
		if b, ok := integer(reg["block"]); ok {
			return fmt.Sprintf("%s p.%d block %d", src, p, b)
		}
		return fmt.Sprintf("%s p.%d", src, p)
	case "image":
		return src + " (whole image)"
	case "ui_screenshot":
		if b, ok := bbox(reg["bbox"]); ok {
			return fmt.Sprintf("%s bbox [%s,%s,%s,%s]", src, fnum(b[0]), fnum(b[1]), fnum(b[2]), fnum(b[3]))
		}
	case "video":
		s, _ := number(reg["t_start"])
		e, _ := number(reg["t_end"])
		return fmt.Sprintf("%s %s–%s s", src, fnum(s), fnum(e))
	case "code":
		path, _ := reg["path"].(string)
		if sym, ok := reg["symbol"].(string); ok {
			return fmt.Sprintf("%s %s:%s", src, path, sym)
		}
		l, _ := integer(reg["line"])
		return fmt.Sprintf("%s %s:L%d", src, path, l)
	case "conversation":
		t, _ := integer(reg["turn"])
		return fmt.Sprintf("%s turn %d", src, t)
	}
	return src
}
