package main

import "os"

// quietUnlessLogged turns the plugin libraries' and the provider's logs off
// when Terraform would drop them (neither TF_LOG nor TF_LOG_PROVIDER set),
// keeping levels set explicitly: TRACE logs cost a third of a plan's CPU,
// and writing them to a killed Terraform's stderr kills the provider before
// its creates reach the journal (TestAccReliability_interruptedApply).
func quietUnlessLogged() {
	if os.Getenv("TF_LOG") != "" || os.Getenv("TF_LOG_PROVIDER") != "" {
		return
	}
	for _, env := range []string{
		"TF_LOG_SDK",               // terraform-plugin-go's root logger
		"TF_LOG_SDK_PROTO",         // its protocol subsystem
		"TF_LOG_SDK_FRAMEWORK",     // terraform-plugin-framework
		"TF_LOG_PROVIDER_PIPELINE", // tflog in the provider (TF_LOG_PROVIDER_ and the type name)
	} {
		if _, set := os.LookupEnv(env); !set {
			_ = os.Setenv(env, "OFF")
		}
	}
}
