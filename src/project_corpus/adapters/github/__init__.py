"""The GitHub Action (`action/action.yml`): `action` runs the steps, `views` renders them."""
