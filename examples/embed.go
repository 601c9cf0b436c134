// Package examples holds the lessons: tensorsh scripts (*.tsh) that teach
// one promotion rule each, the notebooks made from them, and a user
// policy (cpolicy.go). FS embeds the scripts and the policy for front
// ends that have no file system (the browser playground, web/).
package examples

import "embed"

// FS holds the lessons (*.tsh) and the user policy cpolicy.go, by their
// names in this directory.
//
//go:embed *.tsh cpolicy.go
var FS embed.FS
