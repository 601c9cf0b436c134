module github.com/tensorsh/tensorsh

go 1.26.8

require (
	github.com/chzyer/readline v1.5.1 // indirect
	github.com/x448/float16 v0.8.4 // indirect
	golang.org/x/sys v0.0.0-20220310020820-b874c991c1a5 // indirect
)
