package finding

import (
	"fmt"
	"strings"
)

// Selector keeps the findings whose rule code a CI gate asks for
// (`validate` / `audit` --select and --ignore). A pattern is a rule code
// ("rag.unknown-qid") or a prefix ending in "*" ("audit.leak-*", "rag.*",
// "*"); a code is kept when it matches some --select pattern (or none was
// given) and no --ignore pattern. --ignore wins over --select.
type Selector struct {
	Select []string
	Ignore []string
}

// NewSelector checks every pattern against the registry: a pattern that
// matches no registered rule is an error (a typo would otherwise silently
// select nothing, or ignore nothing). Empty patterns are refused too.
func NewSelector(sel, ign []string) (Selector, error) {
	rules := Rules()
	check := func(flag string, pats []string) ([]string, error) {
		var out []string
		for _, raw := range pats {
			// "--select a,b" is the same as "--select a --select b"
			for _, p := range strings.Split(raw, ",") {
				p = strings.TrimSpace(p)
				if p == "" {
					return nil, fmt.Errorf("%s: empty rule pattern", flag)
				}
				if strings.Contains(strings.TrimSuffix(p, "*"), "*") {
					return nil, fmt.Errorf("%s %q: \"*\" is allowed only at the end (a prefix)", flag, p)
				}
				ok := false
				for _, r := range rules {
					if match(p, r.Code) {
						ok = true
						break
					}
				}
				if !ok {
					return nil, fmt.Errorf("%s %q matches no rule code (see the README's rule table or `eval752 validate -h`)", flag, p)
				}
				out = append(out, p)
			}
		}
		return out, nil
	}
	s, err := check("--select", sel)
	if err != nil {
		return Selector{}, err
	}
	i, err := check("--ignore", ign)
	if err != nil {
		return Selector{}, err
	}
	return Selector{Select: s, Ignore: i}, nil
}

func match(pattern, code string) bool {
	if p, ok := strings.CutSuffix(pattern, "*"); ok {
		return strings.HasPrefix(code, p)
	}
	return pattern == code
}

// Active reports whether the selector filters anything.
func (s Selector) Active() bool { return len(s.Select) > 0 || len(s.Ignore) > 0 }

// Keeps reports whether a finding with this code passes the selector.
func (s Selector) Keeps(code string) bool {
	for _, p := range s.Ignore {
		if match(p, code) {
			return false
		}
	}
	if len(s.Select) == 0 {
		return true
	}
	for _, p := range s.Select {
		if match(p, code) {
			return true
		}
	}
	return false
}

// Apply returns the findings of l the selector keeps (l itself when it
// filters nothing), and how many it dropped.
func (s Selector) Apply(l List) (List, int) {
	if !s.Active() {
		return l, 0
	}
	out := List{}
	for _, f := range l {
		if s.Keeps(f.Code) {
			out = append(out, f)
		}
	}
	return out, len(l) - len(out)
}

// Describe is the selector as one line for a report's configuration
// ("" when it filters nothing).
func (s Selector) Describe() string {
	var parts []string
	if len(s.Select) > 0 {
		parts = append(parts, "select "+strings.Join(s.Select, ","))
	}
	if len(s.Ignore) > 0 {
		parts = append(parts, "ignore "+strings.Join(s.Ignore, ","))
	}
	return strings.Join(parts, "; ")
}

// Failed reports whether counts fail a gate: any error, or, when strict,
// any warning too (info never fails).
func (c Counts) Failed(strict bool) bool {
	return c.Error > 0 || (strict && c.Warning > 0)
}
