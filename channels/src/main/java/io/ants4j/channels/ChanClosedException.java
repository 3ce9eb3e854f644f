package io.ants4j.channels;

/**
 * Thrown by a send on a closed {@link Chan}, also one closed while the sender waited, and by a second
 * {@link Chan#close()}: where Go panics. A send that throws it delivered nothing.
 */
public class ChanClosedException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception with a message.
     *
     * @param message what was done on the closed channel
     */
    public ChanClosedException(String message) {
        super(message);
    }
}
