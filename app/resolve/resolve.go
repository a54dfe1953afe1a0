// Package resolve turns gold regions and evidence anchors into the atoms /
// chunks of one run's corpus (spec §4, seed 000 §2.2, seed 003 §4.3).
//
// Gold is stored as "source + region", never as atom ids, because chunking is
// the run's choice. At scoring time each region becomes the set of atoms that
// overlap it. Every resolution that is not clean carries a Problem — no atom,
// a span crossing an atom boundary, a span only partly covered, an unknown
// source — so it is listed for review instead of being silently dropped.
package resolve

import (
	"encoding/json"
	"math"
	"strings"
)

// Problems a resolution can have. Several are joined with "; ".
const (
	ProblemNoAtom        = "no atom"
	ProblemCrosses       = "crosses atom boundary"
	ProblemPartial       = "partial overlap"
	ProblemUnknownSource = "unknown source"
	ProblemBadRegion     = "invalid region"
	ProblemModality      = "unknown modality"
	ProblemWholeSource   = "coarse atom (whole source)"
	ProblemNoRegion      = "no region (whole document)"
	ProblemVersion       = "document version not in chunk table"
	ProblemAnswerText    = "answer text not in clause"
)

// Resolution is one gold entry (or anchor) and the units it became.
type Resolution struct {
	Label   string   // human label: "PH_2016.pdf p.5", "doc_demo_001 [1280,1348)"
	Atoms   []string // resolved atom / chunk / clause ids, table order
	Problem string   // "" when clean
}

func (r *Resolution) addProblem(p string) {
	if p == "" || strings.Contains(r.Problem, p) {
		return
	}
	if r.Problem == "" {
		r.Problem = p
	} else {
		r.Problem += "; " + p
	}
}

// number reads a JSON number decoded either as float64, json.Number or an int.
func number(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, !math.IsNaN(x) && !math.IsInf(x, 0)
	case float32:
		return float64(x), true
	case int:
		return float64(x), true
	case int64:
		return float64(x), true
	case json.Number:
		f, err := x.Float64()
		return f, err == nil
	}
	return 0, false
}

// integer reads an integral JSON number.
func integer(v any) (int, bool) {
	f, ok := number(v)
	if !ok || f != math.Trunc(f) || math.Abs(f) > 1<<53 {
		return 0, false
	}
	return int(f), true
}

// span is a closed-open 1-D extent [lo, hi). A point has lo == hi.
type span struct{ lo, hi float64 }

// overlaps: positive-length intersection; a point overlaps an extent that
// holds it (lo ≤ p < hi, or p == hi for a closed end when inclusive).
func (s span) overlaps(a span) bool {
	if s.lo == s.hi {
		return a.lo <= s.lo && (s.lo < a.hi || (a.lo == a.hi && a.lo == s.lo))
	}
	return a.lo < s.hi && s.lo < a.hi
}

func (s span) containedIn(a span) bool { return a.lo <= s.lo && s.hi <= a.hi }

// classify sets the problem of a 1-D resolution: clean when one overlapping
// extent holds the whole gold span; "crosses atom boundary" when several
// together cover it but none alone does; "partial overlap" when some of
// it lies in no atom.
func classify(g span, parts []span) string {
	if len(parts) == 0 {
		return ProblemNoAtom
	}
	for _, p := range parts {
		if g.containedIn(p) {
			return ""
		}
	}
	if covers(g, parts) {
		return ProblemCrosses
	}
	return ProblemPartial
}

// covers reports whether the union of parts covers g.
func covers(g span, parts []span) bool {
	pos := g.lo
	for {
		advanced := false
		for _, p := range parts {
			if p.lo <= pos && p.hi > pos {
				pos = p.hi
				advanced = true
			}
		}
		if pos >= g.hi {
			return true
		}
		if !advanced {
			return false
		}
	}
}
