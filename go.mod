module github.com/tensorsh/tensorsh

go 1.26.8
