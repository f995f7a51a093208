"""What goes out: replies and GM alerts made into mail (`mails`, `replies`), turn reports with
their pictures (`reports`), welcome mails, template-problem alerts and the out-queue.

May import: pbem.stages and everything below it; never intake, the GM desk or the tick.
"""
