//go:build !benchprofile

package serve

// startProfile does nothing: CPU profiles are for benchmark builds (see
// profile_bench.go).
func startProfile() (stop func()) { return func() {} }
