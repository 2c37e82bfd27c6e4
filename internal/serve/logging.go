package serve

import "os"

// quietUnlessLogged turns the plugin libraries' and the provider's logging
// off when Terraform would discard it; providerVar is the variable of the
// provider's own logs (see providerLogVariable). Terraform shows a provider's logs
// only when TF_LOG or TF_LOG_PROVIDER is set, but terraform-plugin-go and
// the framework log at TRACE by default: every line is still formatted as
// JSON, written to the plugin's stderr, parsed by Terraform and dropped.
// That took about a third of the provider's CPU in a plan of 1,000 records.
// Levels a user set explicitly are kept; -debug runs keep every log, since
// there the provider's own stderr is the developer's terminal.
func quietUnlessLogged(providerVar string) {
	if os.Getenv("TF_LOG") != "" || os.Getenv("TF_LOG_PROVIDER") != "" {
		return
	}
	for _, env := range []string{
		"TF_LOG_SDK",           // terraform-plugin-go's root logger
		"TF_LOG_SDK_PROTO",     // its protocol subsystem
		"TF_LOG_SDK_FRAMEWORK", // terraform-plugin-framework
		providerVar,            // tflog in the provider
	} {
		if _, set := os.LookupEnv(env); !set {
			_ = os.Setenv(env, "OFF")
		}
	}
}
