//go:build eval752_testhook

package dataset

import (
	"os"
	"strings"
)

// Built only with -tags eval752_testhook (the CLI's hostile-input suite
// builds its child binary so): EVAL752_TEST_PANIC_ON=<suffix> makes reading
// any file whose name ends with suffix panic, so the suite can hold the
// panic net of a real process. Release builds have no such switch.
func init() {
	suffix := os.Getenv("EVAL752_TEST_PANIC_ON")
	if suffix == "" {
		return
	}
	TestHookRead = func(name string) {
		if strings.HasSuffix(name, suffix) {
			panic("injected by EVAL752_TEST_PANIC_ON (test hook)")
		}
	}
}
