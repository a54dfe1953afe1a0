package cli

import (
	"context"
	"io"
	"os"
	"runtime"
	"runtime/pprof"
	"testing"
	"time"

	"eval752/app/dataset"
	"eval752/app/itemscore"
	"eval752/app/score"
)

func TestZZPhases(t *testing.T) {
	if os.Getenv("ZZPROF") == "" {
		t.Skip()
	}
	t0 := time.Now()
	go func() {
		time.Sleep(300 * time.Second)
		runtime.GC()
		f, _ := os.Create("/tmp/heap.prof")
		pprof.WriteHeapProfile(f)
		f.Close()
	}()
	st, err := itemscore.ScoreTRECFiles(context.Background(), []itemscore.TRECFile{{Path: "/tmp/eval752-bench/qrels", Qrels: true}, {Path: "/tmp/eval752-bench/run"}}, dataset.DefaultLimits(), itemscore.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	t.Logf("stream %v heap %d MB", time.Since(t0), ms.HeapInuse>>20)
	t1 := time.Now()
	rep := score.Score(st.Set, score.DefaultOptions())
	runtime.ReadMemStats(&ms)
	t.Logf("score %v heap %d MB", time.Since(t1), ms.HeapInuse>>20)
	t2 := time.Now()
	rep.WriteJSON(io.Discard)
	t.Logf("json %v", time.Since(t2))
}
