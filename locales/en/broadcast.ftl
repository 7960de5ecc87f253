## Broadcast (ADMIN_IDS only)

broadcast-usage = Write the message after the command (for example: /broadcast Top-up prices go up tomorrow), or reply to any message (text, photo, video, document, with buttons) with /broadcast.
broadcast-cannot-copy = That message cannot be copied. Reply to a text, photo, video or document.
broadcast-pick-audience = The message above is the preview. Who should get it?
broadcast-audience-all = All active users
broadcast-audience-service = Connected to { $service }
broadcast-audience-locale-id = Indonesian
broadcast-audience-locale-en = English
broadcast-audience-buyers = Bought in the last { $days } days
broadcast-confirm = Send the message above to { $count } active users ({ $audience })?
broadcast-nobody = No active user fits this choice ({ $audience }).
broadcast-send = 📣 Send
broadcast-back = ⬅️ Back
broadcast-cancelled = Broadcast cancelled.
broadcast-queued = Broadcast queued for { $count } users; its progress shows here.
broadcast-busy = Another broadcast is still running. Wait for its report or stop it with /broadcast_cancel.
broadcast-none = No broadcast is running.
broadcast-cancelling = Broadcast stopped; its final report follows.
broadcast-progress =
    📣 Broadcast running
    Sent: { $sent } · remaining: { $remaining } · blocked: { $blocked } · failed: { $failed }
    Rate: { $rate } msg/s · done in about: { $eta }
    Stop it: /broadcast_cancel
broadcast-report-done =
    ✅ Broadcast finished for { $total } users.
    Sent: { $sent } · blocked: { $blocked } · failed: { $failed }
broadcast-report-cancelled =
    ⏹ Broadcast stopped.
    Sent: { $sent } · blocked: { $blocked } · failed: { $failed } · not sent: { $remaining } (of { $total })
