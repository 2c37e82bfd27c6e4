//go:build !linux

package acceptance

const (
	noReapEnv    = "PIPELINE_TEST_NO_REAP"
	noReapPIDEnv = "PIPELINE_TEST_NO_REAP_PID"
)

// noReapSupported: only Linux has subreapers.
const noReapSupported = false

func runNoReap() {}
