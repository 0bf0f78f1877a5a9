"""Update links: one round of message passing over a padded graph batch."""
