package itemscore

import (
	"fmt"
	"testing"

	"eval752/app/model"
)

// TestMarkChoices: a single answer marks its choice, an answer array each
// of its choices, an answer that is no choice marks none.
func TestMarkChoices(t *testing.T) {
	for _, tc := range []struct {
		answer string
		want   string
	}{
		{`"b"`, "[{a false} {b true} {c false}]"},
		{`["a","c"]`, "[{a true} {b false} {c true}]"},
		{`"z"`, "[{a false} {b false} {c false}]"},
	} {
		if got := fmt.Sprint(markChoices([]string{"a", "b", "c"}, model.Raw(tc.answer))); got != tc.want {
			t.Errorf("answer %s: %s, want %s", tc.answer, got, tc.want)
		}
	}
	if markChoices(nil, model.Raw(`"a"`)) != nil {
		t.Error("no choices: want nil")
	}
}
