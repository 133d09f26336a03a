package io.github.distlock.interceptor;

/**
 * Finds the lock operation of a method, parsed and validated once: the source of the
 * {@link LockInterceptor}.
 */
public interface LockOperationSource extends OperationSource<LockOperation> {

}
