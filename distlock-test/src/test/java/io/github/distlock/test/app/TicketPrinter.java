package io.github.distlock.test.app;

/**
 * Prints a sold ticket, inside the sale's lock: the collaborator that tests replace by a
 * double.
 */
@FunctionalInterface
public interface TicketPrinter {

	/**
	 * Print a ticket.
	 * @param event the event
	 */
	void print(String event);

}
