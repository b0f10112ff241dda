// Clang thread-safety annotations (-Wthread-safety), empty on other
// compilers. Private to rockpoint: found through the source-tree include
// root ("base/thread_annotations.h"), never installed.
//
// Use them on members (GUARDED_BY), on functions that need a lock held
// (REQUIRES) or not held (EXCLUDES), and on lock types (CAPABILITY,
// SCOPED_CAPABILITY, ACQUIRE, RELEASE). base/mutex.h has the annotated
// mutex; std::mutex itself carries no annotations in libstdc++.
#pragma once

#if defined(__clang__)
#define ROCKPOINT_THREAD_ANNOTATION(x) __attribute__((x))
#else
#define ROCKPOINT_THREAD_ANNOTATION(x)
#endif

#define CAPABILITY(x) ROCKPOINT_THREAD_ANNOTATION(capability(x))
#define SCOPED_CAPABILITY ROCKPOINT_THREAD_ANNOTATION(scoped_lockable)
#define GUARDED_BY(x) ROCKPOINT_THREAD_ANNOTATION(guarded_by(x))
#define PT_GUARDED_BY(x) ROCKPOINT_THREAD_ANNOTATION(pt_guarded_by(x))
#define REQUIRES(...) \
  ROCKPOINT_THREAD_ANNOTATION(requires_capability(__VA_ARGS__))
#define EXCLUDES(...) ROCKPOINT_THREAD_ANNOTATION(locks_excluded(__VA_ARGS__))
#define ACQUIRE(...) \
  ROCKPOINT_THREAD_ANNOTATION(acquire_capability(__VA_ARGS__))
#define RELEASE(...) \
  ROCKPOINT_THREAD_ANNOTATION(release_capability(__VA_ARGS__))
#define TRY_ACQUIRE(...) \
  ROCKPOINT_THREAD_ANNOTATION(try_acquire_capability(__VA_ARGS__))
#define ASSERT_CAPABILITY(x) ROCKPOINT_THREAD_ANNOTATION(assert_capability(x))
#define RETURN_CAPABILITY(x) ROCKPOINT_THREAD_ANNOTATION(lock_returned(x))
#define NO_THREAD_SAFETY_ANALYSIS \
  ROCKPOINT_THREAD_ANNOTATION(no_thread_safety_analysis)
