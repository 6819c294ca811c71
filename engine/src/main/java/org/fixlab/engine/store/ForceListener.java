package org.fixlab.engine.store;

/**
 * Hears every force a file or mapped store makes, right after the device has taken the bytes: what
 * the store files hold at that moment survives a power loss. For tests (counting forces, keeping an
 * image of the durable files to simulate a power loss) and monitoring; it runs on the session's
 * thread inside the store call, so it must be quick.
 */
@FunctionalInterface
public interface ForceListener
{
    ForceListener NONE = () ->
    {
    };

    void onForced();
}
