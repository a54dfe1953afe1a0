package ui

import "testing"

// The URL hash holds every items filter, the §9 error-code filter too: a
// deep link or Back to "items with RETRIEVAL_MISS" keeps the filter.
// url.Values encodes in key order (code < q < view).
func TestStateHashKeepsItemFilters(t *testing.T) {
	for _, h := range []string{
		"code=RETRIEVAL_MISS&view=items",
		"code=GEN_OMISSION&item=q_test_011&q=kettle&view=items",
	} {
		if got := parseState("#" + h).encode(); got != h {
			t.Errorf("parseState(%q).encode() = %q", h, got)
		}
	}
}
