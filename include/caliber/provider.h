/* caliber candidate-provider ABI for `--candidate library:PATH.so`.
 *
 * A provider library is a shared object built against the same torch as caliber. It changes
 * what ATen calls do by registering kernels with PyTorch's dispatcher at run time (torch::Library
 * objects it owns), never at load time: caliber measures the baseline with the library loaded
 * but unregistered, and the candidate between register and unregister, many times per run.
 *
 * The functions are plain C so that no C++ exception or type crosses the boundary: catch
 * everything inside and report failure through the return value and caliber_provider_error().
 * docs/providers.md has a worked example (examples/override_library/).
 */
#ifndef CALIBER_PROVIDER_H_
#define CALIBER_PROVIDER_H_

#ifdef __cplusplus
extern "C" {
#endif

#if defined(_WIN32)
#define CALIBER_PROVIDER_EXPORT __declspec(dllexport)
#else
#define CALIBER_PROVIDER_EXPORT __attribute__((visibility("default")))
#endif

/* Required. Registers the library's overrides; returns 0 on success, anything else on failure
 * (then caliber_provider_error() says why). Called before every candidate measurement. */
CALIBER_PROVIDER_EXPORT int caliber_provider_register(void);

/* Required. Drops every registration made by caliber_provider_register(), restoring the
 * dispatcher to the baseline. Called after every candidate measurement, also after a failed
 * one. Must not fail. */
CALIBER_PROVIDER_EXPORT void caliber_provider_unregister(void);

/* Optional. A version string for run_identity.json (caliber adds the library's path and
 * SHA-256 either way). The pointer must stay valid while the library is loaded. */
CALIBER_PROVIDER_EXPORT const char* caliber_provider_version(void);

/* Optional. Why the last caliber_provider_register() failed; NULL or "" when unknown. */
CALIBER_PROVIDER_EXPORT const char* caliber_provider_error(void);

#ifdef __cplusplus
}
#endif

#endif /* CALIBER_PROVIDER_H_ */
