package io.github.distlock.curator;

/**
 * What the event listeners are told of one acquisition: its outcome and, once held, its
 * loss and release. Implemented by {@link Events}.
 */
interface AcquisitionEvents {

	void acquired(long fencingToken);

	void timedOut();

	void cancelled();

	void failed(Throwable error);

	void lost();

	void released();

}
