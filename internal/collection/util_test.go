package collection_test

import (
	"fmt"
	"strconv"
)

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

func errorf(format string, args ...any) error { return fmt.Errorf(format, args...) }
