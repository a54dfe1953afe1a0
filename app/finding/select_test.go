package finding

import (
	"strings"
	"testing"
)

func TestSelector(t *testing.T) {
	for _, c := range []string{"sel.leak-exact", "sel.leak-near", "sel.other"} {
		Register(Rule{Code: c, Severity: Warning, Family: "test"})
	}
	l := List{
		{Code: "sel.leak-exact", Severity: Error},
		{Code: "sel.leak-near", Severity: Warning},
		{Code: "sel.other", Severity: Warning},
	}
	codes := func(l List) string {
		var s []string
		for _, f := range l {
			s = append(s, f.Code)
		}
		return strings.Join(s, " ")
	}
	for _, tc := range []struct {
		sel, ign []string
		want     string
		dropped  int
	}{
		{nil, nil, "sel.leak-exact sel.leak-near sel.other", 0},
		{[]string{"sel.leak-*"}, nil, "sel.leak-exact sel.leak-near", 1},
		{[]string{"sel.other"}, nil, "sel.other", 2},
		{nil, []string{"sel.leak-near,sel.other"}, "sel.leak-exact", 2},
		// --ignore wins over --select
		{[]string{"sel.*"}, []string{"sel.leak-exact"}, "sel.leak-near sel.other", 1},
	} {
		s, err := NewSelector(tc.sel, tc.ign)
		if err != nil {
			t.Fatalf("%v %v: %v", tc.sel, tc.ign, err)
		}
		got, n := s.Apply(l)
		if codes(got) != tc.want || n != tc.dropped {
			t.Errorf("select %v ignore %v: %q (dropped %d), want %q (dropped %d)", tc.sel, tc.ign, codes(got), n, tc.want, tc.dropped)
		}
	}
	for _, bad := range [][]string{{"sel.leak"}, {"nope.*"}, {""}, {"sel.*.x"}} {
		if _, err := NewSelector(bad, nil); err == nil {
			t.Errorf("pattern %q accepted", bad)
		}
	}
	if (Counts{Warning: 1}).Failed(false) || !(Counts{Warning: 1}).Failed(true) || (Counts{Info: 3}).Failed(true) || !(Counts{Error: 1}).Failed(false) {
		t.Error("Counts.Failed")
	}
}
