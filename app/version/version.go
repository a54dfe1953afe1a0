// Package version holds the tool version cited in every report.
package version

// Version is eval752's version. Reports cite it so a number can be traced to
// the code that computed it.
const Version = "0.1.0"

// Name is the tool name used in reports.
const Name = "eval752"
