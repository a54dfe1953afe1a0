package score

import (
	"os"
	"testing"
)

func TestShow(t *testing.T) {
	if os.Getenv("SHOW") == "" {
		t.Skip()
	}
	Score(handSet(t), DefaultOptions()).WriteText(os.Stdout)
	r, _ := Compare(handSet(t), "a", "b", DefaultOptions())
	r.WriteText(os.Stdout)
}
