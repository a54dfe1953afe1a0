package cli

import (
	"context"
	"io"
	"os"
	"testing"
)

func TestZZProf(t *testing.T) {
	if os.Getenv("ZZPROF") == "" {
		t.Skip()
	}
	Main(context.Background(), []string{"score", "--json", "/tmp/eval752-bench/qrels", "/tmp/eval752-bench/run"}, io.Discard, os.Stderr)
}
