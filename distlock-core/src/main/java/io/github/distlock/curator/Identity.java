package io.github.distlock.curator;

/**
 * Who this client is, as the engine's parts see it: what its lock nodes hold. Implemented
 * by {@link HolderIdentity}.
 */
interface Identity {

	/** The data of a lock node: who holds it, from which host and since when. */
	byte[] nodeData(String holder);

	/** This client's default member id in leader elections: {@code app@host:pid}. */
	String memberId();

}
