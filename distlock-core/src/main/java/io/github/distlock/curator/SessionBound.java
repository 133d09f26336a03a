package io.github.distlock.curator;

/**
 * What follows one client's session: a hold, an acquisition in flight, a participant of a
 * leader election (its tenure and its queue position). The {@code Session}'s one
 * implementation alone follows the connection, and tells each what happened, on Curator's
 * connection-state thread, in the order Curator reports it: holds first, then
 * acquisitions, then participants. Each decides what the event means for it (its
 * policies, the session its node belongs to).
 */
interface SessionBound {

	/** The connection was suspended: the session may still be alive. */
	void suspended();

	/**
	 * The connection came back (or was made for the first time). The session may have
	 * been replaced meanwhile: a node made through an older handle of Curator's
	 * ({@code Session#clientInstance()}) belongs to a dead session, whether or not a loss
	 * was reported.
	 */
	void reconnected();

	/** Curator reported the session lost: the nodes of the session die with it. */
	void lost();

}
