## Groups: notifications in a group

groups-link-in-group = Run this command in the group that should receive your transaction notices (you must be an admin there).
groups-link-not-connected = Connect your top-up or marketplace account first in a private chat with me (/connect), then run /linkgroup here again.
groups-link-not-admin = Only a group admin can link this group.
groups-linked = This group is now linked to { $name }: it receives their transaction notices (targets partly hidden, no balance) and /verify uses their marketplace account. /unlinkgroup to stop.
groups-not-linked = This group is not linked to any account.
groups-unlink-not-allowed = Only the owner of the link or a group admin can remove it.
groups-unlinked = Okay, this group no longer receives transaction notices.
command-linkgroup = Send my transaction notices to this group
command-unlinkgroup = Stop transaction notices in this group
